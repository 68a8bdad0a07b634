// Helpers shared by the probe programs: CUDA error checks and hex output of trace fields.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#define CUDA_CHECK(x)                                                                               \
  do {                                                                                              \
    cudaError_t e_ = (x);                                                                           \
    if (e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(3);                                                                                 \
    }                                                                                               \
  } while (0)

namespace probe {

// Appends v as `digits` lowercase hex digits.
inline void hex(std::string& s, uint32_t v, int digits) {
  static const char* d = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) s += d[(v >> (4 * i)) & 15];
}

}  // namespace probe
