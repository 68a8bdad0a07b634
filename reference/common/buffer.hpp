// Buffer<T>: a std::vector whose elements are left uninitialised on resize (trivial T only), for
// the pipelines' large intermediates. Zeroing a fresh multi-megabyte vector costs a page fault per
// 4 KiB on one thread before any work starts; left uninitialised, its pages are first touched by
// the parallel loop that writes every element anyway. Every user must write each element before
// reading it.
#pragma once
#include <memory>
#include <type_traits>
#include <vector>

namespace ozref {

template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  static_assert(std::is_trivial_v<T>);
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no write
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using Buffer = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace ozref
