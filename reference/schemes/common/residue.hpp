// Balanced residues and the modular reduction a kernel applies after each INT8 GEMM.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace ozref::schemes {

// The representative of x mod m in [-floor(m/2), ceil(m/2) - 1] ([-128, 127] for 256).
int32_t balanced_residue(int64_t x, int64_t m);
// The same for an integer held exactly in a double (any magnitude): x = sig * 2^e.
int32_t balanced_residue_of_integer(double x, int64_t m);
// balanced_residue_of_integer of each of `count` integers held in doubles modulo each modulus
// (at most 2^15; for int8_t outputs at most 256), into out[t * stride + v] for modulus t; the
// residues stage's kernel (below 2^62 in double arithmetic that vectorises).
void balanced_residues(const double* x, size_t count, std::span<const int64_t> moduli, int16_t* out, size_t stride);
void balanced_residues(const double* x, size_t count, std::span<const int64_t> moduli, int8_t* out, size_t stride);

// The reduction of an INT32 GEMM output to its balanced residue as a GPU kernel computes it:
// q = (x * mu) >> 32 with mu = floor(2^32 / m) (GEMMul8's a - p * __mulhi(a, floor(2^32/p))),
// r = x - q m, then one correction into [0, m) from either side and the shift into the balanced
// range.
// Declared domain: every int32 x, for moduli 3 .. 2^15 (the int8 moduli). `ozref prove` checks it
// over that domain for every modulus. The arithmetic stays in 32-bit lanes (mu < 2^31 is a signed
// int32, q m is taken modulo 2^32: r lies in [-m, 2m), so its wrapped value is the true one), so
// that reduce_all vectorises 16 outputs at a time.
struct BarrettReducer {
  int64_t m = 0;
  uint32_t mu = 0;
  explicit BarrettReducer(int64_t modulus);  // std::invalid_argument outside 3 .. 2^15
  int32_t reduce(int32_t x) const {  // inline: the reduce stage applies it to every GEMM output
    const auto m32 = static_cast<int32_t>(m);
    const auto q = static_cast<int32_t>((int64_t{x} * int64_t{static_cast<int32_t>(mu)}) >> 32);  // floor, as the signed __mulhi of a kernel
    // r = x - q m in [-m, 2m): q may exceed floor(x/m) by one for x < 0
    auto r = static_cast<int32_t>(static_cast<uint32_t>(x) - static_cast<uint32_t>(q) * static_cast<uint32_t>(m32));
    r += r < 0 ? m32 : 0;
    r -= r >= m32 ? m32 : 0;
    return r >= (m32 + 1) / 2 ? r - m32 : r;
  }
  // reduce() of `count` INT32 outputs (bit patterns) into out.
  void reduce_all(const uint32_t* x, size_t count, int16_t* out) const;
};

}  // namespace ozref::schemes
