#include "mma/exact_regime.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "formats/decode.hpp"
#include "mma/execute.hpp"
#include "mma/int8_gemm.hpp"

namespace ozref::mma {
namespace {

constexpr int16_t kNotInRegime = INT16_MIN;

// value * 2^s as an integer in [-127, 127], or kNotInRegime.
int16_t scaled_integer(const FormatSpec& f, uint32_t bits, int s) {
  const ExactValue v = decode(f, bits);
  if (!v.is_finite()) return kNotInRegime;
  if (v.significand == 0) return 0;
  const int e = v.exponent + s;
  int64_t mag;
  if (e >= 0) {
    if (e > 7) return kNotInRegime;
    mag = int64_t(v.significand) << e;
  } else {
    if (-e >= 64 || (v.significand & ((uint64_t{1} << -e) - 1))) return kNotInRegime;
    mag = int64_t(v.significand >> -e);
  }
  if (mag > 127) return kNotInRegime;
  return int16_t(v.negative ? -mag : mag);
}

int capacity_bits(const InstructionSpec& spec) {
  const FusedBlock& b = spec.block;
  const int out = b.output_fraction_bits + 1;
  return b.fraction_bits == FusedBlock::kExact ? out : std::min(b.fraction_bits + 1, out);
}

}  // namespace

bool exact_regime_gemm(const InstructionSpec& spec, const GemmOperands& x, int threads, std::span<uint32_t> d) {
  if (spec.kind != Kind::Float) return false;
  const FormatSpec& fa = format_spec(spec.a_format);
  const FormatSpec& fb = format_spec(spec.b_format);
  const int s = spec.a_format == FormatId::E2M1 ? 1 : 0;
  if ((spec.b_format == FormatId::E2M1 ? 1 : 0) != s) return false;
  const size_t k = x.k, steps = k / size_t(spec.k);
  // value * 2^s of every encoding, once (256 or 65536 entries), instead of decoding per element.
  const size_t codes = spec.packing == Packing::Half ? 65536 : 256;
  std::vector<int16_t> table_a(codes), table_b(codes);
  for (size_t code = 0; code < codes; ++code) {
    const bool valid = spec.packing == Packing::PaddedFp4 ? (code & 0xC3) == 0 : true;
    const uint32_t bits = spec.packing == Packing::PaddedFp4 ? uint32_t(code >> 2) : uint32_t(code);
    table_a[code] = valid ? scaled_integer(fa, bits, s) : kNotInRegime;
    table_b[code] = valid ? scaled_integer(fb, bits, s) : kNotInRegime;
  }
  // Operand rows in element order; packed FP4 (two per byte) is not handled here.
  if (spec.packing == Packing::PackedFp4) return false;
  const size_t row_bytes = operand_bytes(spec) * steps;
  std::vector<uint8_t> a8(x.m * k), b8(x.n * k);
  std::vector<uint64_t> row_abs_max(x.m, 0), col_abs_sum(x.n, 0), row_abs_sum(x.m, 0), col_abs_max(x.n, 0);
  auto convert = [&](std::span<const uint8_t> src, size_t lines, const std::vector<int16_t>& table, std::vector<uint8_t>& dst,
                     std::vector<uint64_t>& abs_max, std::vector<uint64_t>& abs_sum) {
    bool ok = true;
#pragma omp parallel for schedule(static) reduction(&& : ok)
    for (size_t i = 0; i < lines; ++i) {
      const uint8_t* p = src.data() + i * row_bytes;
      uint64_t mx = 0, sum = 0;
      for (size_t kk = 0; kk < k; ++kk) {
        const size_t code = spec.packing == Packing::Half ? (size_t(p[2 * kk]) << 8 | p[2 * kk + 1]) : p[kk];
        const int16_t v = table[code];
        if (v == kNotInRegime) { ok = false; break; }
        dst[i * k + kk] = uint8_t(int8_t(v));
        const uint64_t av = uint64_t(v < 0 ? -v : v);
        mx = std::max(mx, av);
        sum += av;
      }
      abs_max[i] = mx;
      abs_sum[i] = sum;
    }
    return ok;
  };
  if (!convert(x.a, x.m, table_a, a8, row_abs_max, row_abs_sum)) return false;
  if (!convert(x.b, x.n, table_b, b8, col_abs_max, col_abs_sum)) return false;
  // C in units of 2^-2s, integer-valued.
  std::vector<uint32_t> c_units;
  uint64_t c_max = 0;
  if (!x.c.empty()) {
    c_units.resize(x.c.size());
    for (size_t i = 0; i < x.c.size(); ++i) {
      const float cf = std::bit_cast<float>(x.c[i]);
      const double scaled = std::ldexp(double(cf), 2 * s);
      if (!std::isfinite(cf) || scaled != std::floor(scaled) || std::fabs(scaled) >= 0x1p30) return false;
      c_units[i] = uint32_t(int32_t(scaled));
      c_max = std::max<uint64_t>(c_max, uint64_t(std::fabs(scaled)));
    }
  }
  // sum_k |a||b| <= min(row max * column sum, row sum * column max), in units of 2^-2s; the
  // largest row max times the largest column sum settles most cases without the m x n loop.
  const uint64_t limit = uint64_t{1} << (capacity_bits(spec));  // in units: 2^(cap - 2s) * 2^2s
  // (0 for m = 0 or n = 0, whose D is empty: an empty vector has no largest element to read)
  const auto largest = [](const std::vector<uint64_t>& v) { return v.empty() ? uint64_t{0} : *std::max_element(v.begin(), v.end()); };
  const uint64_t max_row_max = largest(row_abs_max), max_col_sum = largest(col_abs_sum);
  if (max_row_max * max_col_sum + c_max >= limit) {
    bool fits = true;
#pragma omp parallel for schedule(static) reduction(&& : fits) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (size_t i = 0; i < x.m; ++i)
      for (size_t j = 0; j < x.n; ++j)
        fits = fits && std::min(row_abs_max[i] * col_abs_sum[j], row_abs_sum[i] * col_abs_max[j]) + c_max < limit;
    if (!fits) return false;
  }
  int8_gemm_wrapping({x.m, x.n, k, true, true}, a8, b8, c_units, d, threads);
  // The integer sums back to FP32 (|sum| < 2^24 units: the conversion and the power-of-two scale
  // are exact; a zero sum is +0).
  const float unit = s ? 0.25f : 1.0f;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (size_t i = 0; i < d.size(); ++i) {
    const float v = float(int32_t(d[i])) * unit;
    d[i] = v == 0 ? 0u : std::bit_cast<uint32_t>(v);
  }
  return true;
}

}  // namespace ozref::mma
