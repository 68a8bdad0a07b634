// The K-block size cuBLAS 13.1's fixed-point emulation uses for an m x n x k product: a rule fitted
// to the 210 shapes device/probes/cublas_kblock_probe.cu measured on the H200 (the same at 23 and
// 79 bits; docs/third-party.md, "The K-block size"). A split-K over 128 x 128 output tiles into 32
// work units: with t = ceil(m/128) ceil(n/128) tiles, K is one block when k <= 512 and t < 8;
// otherwise it is split s = max(1, 32/t) ways, each part the nearest multiple of 128 (halves up, at
// least 128). Measured for 1, 2, 4, 8 and 16 tiles and k = 256..8192 only; elsewhere an extrapolation.
#pragma once
#include <cstddef>

namespace ozref::schemes::cublas_fixedpoint {

size_t kblock_size(size_t m, size_t n, size_t k);

}  // namespace ozref::schemes::cublas_fixedpoint
