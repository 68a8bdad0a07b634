// CUDA errors as exceptions naming the call and where it was made (the runner reports them as a
// failed lockstep, never as a crash), and device buffers freed with their owner.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/device_run.hpp"

namespace ozref::device {

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorString(e));
}
#define OZREF_CUDA(x) ::ozref::device::check((x), #x, __FILE__, __LINE__)
// After a launch: the launch's own error, then the kernel's; the launch counted (device_run.hpp).
#define OZREF_CUDA_LAUNCHED()                          \
  do {                                                 \
    OZREF_CUDA(cudaGetLastError());                    \
    OZREF_CUDA(cudaDeviceSynchronize());               \
    ::ozref::device::record_launch(__FILE__, __LINE__); \
  } while (0)

// The canary byte of a new device array, as Tensor::fill_canary writes the host array it is
// downloaded into: 0xFF (a NaN) for floating-point elements and for uint32_t (the FP32 bit
// patterns of the FP8 and FP4 GEMMs), 0xA5 for integers. An element no kernel writes keeps it.
template <typename T>
constexpr uint8_t device_canary() {
  return std::is_floating_point_v<T> || std::is_same_v<T, uint32_t> ? 0xFF : 0xA5;
}

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  // Filled with the canary (device_canary), so that an element left unwritten shows.
  explicit DeviceArray(size_t count) : count_(count) {
    allocate();
    fill_bytes(device_canary<T>());
  }
  DeviceArray(const T* host, size_t count) : count_(count) {
    allocate();
    upload(host);
  }
  ~DeviceArray() { cudaFree(ptr_); }
  DeviceArray(DeviceArray&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr, o.count_ = 0; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(ptr_, o.ptr_), std::swap(count_, o.count_);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  void upload(const T* host) { OZREF_CUDA(cudaMemcpy(ptr_, host, count_ * sizeof(T), cudaMemcpyHostToDevice)); }
  void download(T* host) const { OZREF_CUDA(cudaMemcpy(host, ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost)); }
  void fill_bytes(int byte) { OZREF_CUDA(cudaMemset(ptr_, byte, count_ * sizeof(T))); }

 private:
  void allocate() { OZREF_CUDA(cudaMalloc(&ptr_, (count_ ? count_ : 1) * sizeof(T))); }
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Blocks of `threads` covering `count` items.
inline unsigned blocks_for(size_t count, unsigned threads = 256) { return static_cast<unsigned>((count + threads - 1) / threads); }

}  // namespace ozref::device
