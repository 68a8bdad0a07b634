// The fast path of integer MMA GEMMs: D = C + A*B with 8-bit operands and 32-bit wrapping
// accumulation, exact modulo 2^32 for any K (so equal to a chain of wrapping m16n8k32 MMAs).
// AVX-512 VNNI (vpdpbusd, non-saturating) where the CPU has it, a portable loop otherwise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace ozref::mma {

struct Int8GemmShape {
  size_t m = 0, n = 0, k = 0;
  bool a_signed = true, b_signed = true;
};

// a: m rows of k bytes; b: n columns of k bytes (column j's k values contiguous);
// c: m*n (or empty for zero); d: m*n output. Row-major c and d.
void int8_gemm_wrapping(const Int8GemmShape& shape, std::span<const uint8_t> a, std::span<const uint8_t> b,
                        std::span<const uint32_t> c, std::span<uint32_t> d, int threads);

bool cpu_has_vnni();
void force_portable_int8_gemm(bool portable);  // for tests: run the portable loop even with VNNI

}  // namespace ozref::mma
