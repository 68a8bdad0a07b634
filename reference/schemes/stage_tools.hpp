// Helpers the scheme stages share: input checks, the scheme's input arrays, the correctly rounded
// FP64 value of an exact integer times a power of two, and a GEMM element's operands.
#pragma once
#include <gmpxx.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/pipeline/arrays.hpp"
#include "schemes/pipeline/stage.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::schemes {

mpz_class mpz_from_int128(__int128 v);
// An integer as `count` 64-bit words, two's complement, least significant first (the crt stage's
// array); words_from_mpz keeps the low 64 count bits of one that does not fit (a sum of a trace's
// outputs beyond the scheme's bound), as a kernel's fixed-width accumulator wraps.
mpz_class mpz_from_words(const int64_t* words, size_t count);
void words_from_mpz(const mpz_class& x, int64_t* words, size_t count);

// InputError "<scheme>: <name>[i,j] is not finite; ..." for the first NaN or infinity.
void require_finite(MatrixView<double> m, const char* scheme, const char* name);
// That message for element (i, j); the index of the first NaN or infinity (C order), or m.size().
std::string non_finite_message(const std::string& scheme, const char* name, size_t i, size_t j);
size_t first_non_finite(MatrixView<double> m);

// "[t][i][j]" for violation messages.
std::string index3(size_t t, size_t i, size_t j);

// 2^e as a double when it is a normal number (e in [-1022, 1023]: then x * 2^e rounds exactly as
// ldexp(x, e) does), else 0.
inline double normal_power_of_two(int e) {
  return e >= -1022 && e <= 1023 ? std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52) : 0.0;
}

// The exponent e of x 2^e where e is a sum of shifts and exponents a trace supplies (any int32
// values; the caller sums them in 64 bits), clamped to +-2^14: for every |x| below 2^15000 that a
// stage scales (doubles, CRT and accumulated integers, rationals of them), x 2^e is zero or infinity
// on both sides of the clamp and rounds alike, and the exact checks' powers of two stay small.
inline constexpr int64_t kExponentClamp = int64_t{1} << 14;
inline int clamped_exponent(int64_t e) { return static_cast<int>(std::clamp(e, -kExponentClamp, kExponentClamp)); }

// The values a low-precision GEMM takes as operands: those with an exact encoding in its format
// (nullopt for INT8, which takes every byte).
std::optional<AdmittedValues> encodable(const LowpGemm& g);

// c * 2^e rounded to the nearest FP64 (ties to even; overflow to infinity; a nonzero value that
// rounds to zero keeps its sign).
double nearest_double(const mpz_class& c, int e);
double nearest_double(__int128 c, int e);

// True when `got` is the GMP oracle's nearest-even rounding of c * 2^e (the unscale contracts).
bool is_correct_rounding(const mpz_class& c, int e, double got);

// Seconds since `start` (a run's pipeline_seconds, taken after its last stage).
double seconds_since(std::chrono::steady_clock::time_point start);

// InputError "<scheme>: A is m x k but B is k' x n" unless A's columns are B's rows.
void require_product_shapes(size_t a_rows, size_t a_cols, size_t b_rows, size_t b_cols, const std::string& scheme);

// A scheme's inputs as the arrays input.a and input.b: one part each (real), or two (re, im).
Arrays input_arrays(const std::vector<MatrixView<double>>& a_parts, const std::vector<MatrixView<double>>& b_parts);

// A complex product as one real product: [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C].
struct StackedComplex {
  Matrix<double> a, b;
};
StackedComplex stack_complex(MatrixView<double> a_re, MatrixView<double> a_im, MatrixView<double> b_re,
                             MatrixView<double> b_im);
// The real product a run's result is measured against: A B, or for two parts the stacked complex
// product (Re C over Im C).
StackedComplex real_operands(const Tensor& a, const Tensor& b, size_t parts, size_t m, size_t n, size_t k);

// One output element's operands for a GEMM reproducer: `k` values of A's row and of B's column
// (with their strides), encoded as the instruction takes them.
template <typename T>
GemmElement gemm_operands(const LowpGemm& g, const T* a, size_t a_stride, const T* b, size_t b_stride, size_t k) {
  return {g.spec().op, g.encode_line(a, a_stride, k), g.encode_line(b, b_stride, k), 0};
}

}  // namespace ozref::schemes
