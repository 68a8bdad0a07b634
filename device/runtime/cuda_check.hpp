// CUDA errors as exceptions naming the call and where it was made (the runner reports them as a
// failed lockstep, never as a crash), and device buffers freed with their owner.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace ozref::device {

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorString(e));
}
#define OZREF_CUDA(x) ::ozref::device::check((x), #x, __FILE__, __LINE__)
// After a launch: the launch's own error, then the kernel's.
#define OZREF_CUDA_LAUNCHED()                          \
  do {                                                 \
    OZREF_CUDA(cudaGetLastError());                    \
    OZREF_CUDA(cudaDeviceSynchronize());               \
  } while (0)

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t count) : count_(count) { OZREF_CUDA(cudaMalloc(&ptr_, (count ? count : 1) * sizeof(T))); }
  DeviceArray(const T* host, size_t count) : DeviceArray(count) { upload(host); }
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
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Blocks of `threads` covering `count` items.
inline unsigned blocks_for(size_t count, unsigned threads = 256) { return static_cast<unsigned>((count + threads - 1) / threads); }

}  // namespace ozref::device
