#include "mma/gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "common/error.hpp"
#include "mma/exact_regime.hpp"
#include "mma/execute.hpp"
#include "mma/fp_block_gemm.hpp"
#include "mma/int8_gemm.hpp"

namespace ozref::mma {
namespace {

size_t bytes_for(const InstructionSpec& s, size_t k) { return operand_bytes(s) * (k / size_t(s.k)); }

void check_sizes(const InstructionSpec& s, const GemmOperands& x) {
  if (x.k % size_t(s.k))
    throw InputError(s.op + ": K = " + std::to_string(x.k) + " is not a multiple of the instruction's K = " +
                     std::to_string(s.k) + " (pad A and B with zeros)");
  const size_t row = bytes_for(s, x.k);
  if (x.a.size() != x.m * row || x.b.size() != x.n * row)
    throw InputError(s.op + ": A must hold " + std::to_string(x.m * row) + " bytes and B " + std::to_string(x.n * row));
  if (!x.c.empty() && x.c.size() != x.m * x.n) throw InputError(s.op + ": C must hold m * n values");
  if (s.kind == Kind::BlockScaled) {
    const size_t per = x.k / size_t(s.scale_block);
    if (x.scale_a.size() != x.m * per || x.scale_b.size() != x.n * per)
      throw InputError(s.op + ": expected " + std::to_string(per) + " scale bytes per row of A and column of B");
  }
}

// Largest |partial sum| a saturating chain can reach, bounded from above.
bool saturation_cannot_trigger(const InstructionSpec& s, const GemmOperands& x) {
  uint64_t max_c = 0;
  for (uint32_t v : x.c) max_c = std::max<uint64_t>(max_c, uint64_t(std::llabs(int64_t(int32_t(v)))));
  auto max_abs = [](std::span<const uint8_t> v, bool sgn) {
    uint64_t m = 0;
    for (uint8_t b : v) m = std::max<uint64_t>(m, sgn ? uint64_t(std::abs(int(int8_t(b)))) : b);
    return m;
  };
  return max_c + uint64_t(x.k) * max_abs(x.a, s.a_signed) * max_abs(x.b, s.b_signed) <= uint64_t(INT32_MAX);
}

bool integer_fast_path_applies(const InstructionSpec& s, const GemmOperands& x) {
  return s.kind == Kind::Integer && (!s.saturate || saturation_cannot_trigger(s, x));
}

}  // namespace

ElementOperands step_operands(const InstructionSpec& s, const GemmOperands& x, size_t i, size_t j, size_t step, uint32_t c) {
  const size_t row = bytes_for(s, x.k), step_bytes = operand_bytes(s);
  ElementOperands e;
  e.a = x.a.subspan(i * row + step * step_bytes, step_bytes);
  e.b = x.b.subspan(j * row + step * step_bytes, step_bytes);
  e.c = c;
  if (s.kind == Kind::BlockScaled) {
    const size_t scales = x.k / size_t(s.scale_block), step_scales = scale_bytes(s);
    e.scale_a = x.scale_a.subspan(i * scales + step * step_scales, step_scales);
    e.scale_b = x.scale_b.subspan(j * scales + step * step_scales, step_scales);
  }
  return e;
}

bool fast_path_applies(const InstructionSpec& s, const GemmOperands& x) {
  return integer_fast_path_applies(s, x) || fp_block_gemm_applies(s);
}

std::vector<uint32_t> gemm(const InstructionSpec& s, const GemmOperands& x, const GemmOptions& options) {
  std::vector<uint32_t> d(x.m * x.n);
  gemm_into(s, x, d, options);
  return d;
}

void gemm_into(const InstructionSpec& s, const GemmOperands& x, std::span<uint32_t> d, const GemmOptions& options) {
  check_sizes(s, x);
  if (d.size() != x.m * x.n) throw std::logic_error("gemm_into: D has " + std::to_string(d.size()) + " elements, not m * n");
  // Canary: every element must be written (filled by all threads: a single-threaded fill of a
  // large D costs several percent of an INT8 GEMM).
  const int fill_threads = options.threads > 0 ? options.threads : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(fill_threads)
  for (size_t i = 0; i < d.size(); ++i) d[i] = 0xDEADBEEFu;
  if (options.allow_fast_path && integer_fast_path_applies(s, x)) {
    int8_gemm_wrapping({x.m, x.n, x.k, s.a_signed, s.b_signed}, x.a, x.b, x.c, d, options.threads);
    return;
  }
  if (options.allow_fast_path && exact_regime_gemm(s, x, options.threads, d)) return;
  if (options.allow_fast_path && fp_block_gemm(s, x, options.threads, d)) return;
  const size_t steps = x.k / size_t(s.k), row = bytes_for(s, x.k), step_bytes = operand_bytes(s);
  const int saved = omp_get_max_threads();
  if (options.threads > 0) omp_set_num_threads(options.threads);
  if (s.kind == Kind::Float) {
    // Each element decoded once (m k + n k decodes instead of 2 m n k), then the same instruction
    // semantics as execute() on the decoded values.
    std::vector<DecodedElement> da(x.m * x.k), db(x.n * x.k);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < x.m; ++i)
      for (size_t kk = 0; kk < x.k; ++kk)
        da[i * x.k + kk] = decode_element(s, s.a_format, element_bits(s, x.a.subspan(i * row + kk / size_t(s.k) * step_bytes, step_bytes), int(kk % size_t(s.k))));
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < x.n; ++j)
      for (size_t kk = 0; kk < x.k; ++kk)
        db[j * x.k + kk] = decode_element(s, s.b_format, element_bits(s, x.b.subspan(j * row + kk / size_t(s.k) * step_bytes, step_bytes), int(kk % size_t(s.k))));
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t i = 0; i < x.m; ++i)
      for (size_t j = 0; j < x.n; ++j) {
        uint32_t acc = x.c.empty() ? 0u : x.c[i * x.n + j];
        for (size_t st = 0; st < steps; ++st)
          acc = execute_float_decoded(s, &da[i * x.k + st * size_t(s.k)], &db[j * x.k + st * size_t(s.k)], acc);
        d[i * x.n + j] = acc;
      }
    omp_set_num_threads(saved);
    return;
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t i = 0; i < x.m; ++i)
    for (size_t j = 0; j < x.n; ++j) {
      uint32_t acc = x.c.empty() ? 0u : x.c[i * x.n + j];
      for (size_t st = 0; st < steps; ++st) acc = execute(s, step_operands(s, x, i, j, st, acc));
      d[i * x.n + j] = acc;
    }
  omp_set_num_threads(saved);
}

}  // namespace ozref::mma
