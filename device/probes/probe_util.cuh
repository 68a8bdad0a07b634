// CUDA helpers shared by the probe programs: error checks, device buffers, operand loads and
// shared-memory matrix descriptors.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CUDA_CHECK(x)                                                                               \
  do {                                                                                              \
    cudaError_t e_ = (x);                                                                           \
    if (e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(3);                                                                                 \
    }                                                                                               \
  } while (0)

namespace probe {

// A host vector copied to the device, freed with the buffer.
template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  explicit DeviceBuffer(const std::vector<T>& host) {
    CUDA_CHECK(cudaMalloc(&ptr, (host.empty() ? 1 : host.size()) * sizeof(T)));
    if (!host.empty()) CUDA_CHECK(cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::vector<T> copy_back(size_t n) const {
    std::vector<T> host(n);
    CUDA_CHECK(cudaMemcpy(host.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

// Four bytes as a little-endian 32-bit register (the operand register of 8-bit or packed elements).
__device__ inline uint32_t load_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// A shared-memory matrix descriptor without swizzle (wgmma, tcgen05): start address, leading and
// stride byte offsets, each >> 4 in its 14-bit field.
__device__ inline uint64_t smem_descriptor(const void* smem, uint32_t leading, uint32_t stride) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return uint64_t((addr >> 4) & 0x3FFF) | uint64_t((leading >> 4) & 0x3FFF) << 16 | uint64_t((stride >> 4) & 0x3FFF) << 32;
}

// The first GPU's properties; false, with a message naming `program`, when there is none.
inline bool first_device(const char* program, cudaDeviceProp& prop) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "%s: no CUDA device present; nothing was run\n", program);
    return false;
  }
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  return true;
}

// "sm_90" for compute capability 9.0, as the records' "arch" field holds it.
inline std::string arch_name(const cudaDeviceProp& prop) { return "sm_" + std::to_string(prop.major * 10 + prop.minor); }

// After a launch: the launch error, then any error while it ran.
inline void finish_launch() {
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace probe
