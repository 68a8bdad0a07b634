// fuzz_mma: the MMA models on operands decoded from the input bytes. The mode byte picks an
// architecture and one of its instructions (integer and byte-packed FP kinds); the next byte the
// shape (m, n in 1..2, one or two instruction K steps). Checks:
//   - the fast paths (exact integer and exact-regime FP) give the same bits as the instruction
//     chain they replace;
//   - on `ideal`, every FP result is the instruction chain computed with GMP rationals: each step's
//     products added exactly to the previous FP32 result and rounded once to nearest-even (inputs
//     finite, sums within FP32's range); integer results are the exact sum wrapped or clamped.
#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "exact/rational_oracle.hpp"
#include "formats/decode.hpp"
#include "mma/gemm.hpp"

namespace {

using namespace ozref;

std::vector<const mma::InstructionSpec*> candidates() {
  std::vector<const mma::InstructionSpec*> out;
  for (const std::string& name : mma::arch_names())
    for (const mma::InstructionSpec& s : mma::arch(name).instructions)
      if (s.kind == mma::Kind::Integer || (s.kind == mma::Kind::Float && s.packing != mma::Packing::PackedFp4)) out.push_back(&s);
  return out;
}

bool is_ideal(const mma::InstructionSpec& s) {
  for (const mma::InstructionSpec& i : mma::arch("ideal").instructions)
    if (&i == &s) return true;
  return false;
}

// The exact value of an encoding, or false when it is not finite.
bool exact_value(FormatId f, uint64_t bits, mpq_class& out) {
  const ExactValue v = decode(format_spec(f), bits);
  if (!v.is_finite()) return false;
  out = oracle::rational(v);
  return true;
}

// Element k of an operand as the instruction packs it.
bool element(const mma::InstructionSpec& s, FormatId f, const uint8_t* bytes, size_t k, mpq_class& out) {
  switch (s.packing) {
    case mma::Packing::Half: return exact_value(f, uint64_t(bytes[2 * k]) << 8 | bytes[2 * k + 1], out);
    case mma::Packing::PaddedFp4: return exact_value(f, (bytes[k] >> 2) & 0xF, out);
    default: return exact_value(f, bytes[k], out);
  }
}

[[noreturn]] void fail(const mma::InstructionSpec& s, const char* what) {
  std::fprintf(stderr, "fuzz_mma: %s: %s\n", s.op.c_str(), what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<const mma::InstructionSpec*> specs = candidates();
  if (size < 2) return 0;
  const mma::InstructionSpec& s = *specs[data[0] % specs.size()];
  const size_t m = 1 + (data[1] & 1), n = 1 + ((data[1] >> 1) & 1), k = size_t(s.k) * (1 + ((data[1] >> 2) & 1));
  const size_t width = s.packing == mma::Packing::Half ? 2 : 1, a_bytes = m * k * width, b_bytes = n * k * width;
  std::vector<uint8_t> a(a_bytes, 0), b(b_bytes, 0);
  for (size_t i = 0; i < a_bytes + b_bytes && 2 + i < size; ++i) (i < a_bytes ? a[i] : b[i - a_bytes]) = data[2 + i];
  if (s.packing == mma::Packing::PaddedFp4) {  // the unused container bits must be zero
    for (auto& x : a) x &= 0x3C;
    for (auto& x : b) x &= 0x3C;
  }
  const mma::GemmOperands ops{m, n, k, a, b, {}, {}, {}};
  const std::vector<uint32_t> fast = mma::gemm(s, ops, {.threads = 1, .allow_fast_path = true});
  const std::vector<uint32_t> chain = mma::gemm(s, ops, {.threads = 1, .allow_fast_path = false});
  if (fast != chain) fail(s, "fast path differs from the instruction chain");
  if (!is_ideal(s)) return 0;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      const uint32_t got = chain[i * n + j];
      if (s.kind == mma::Kind::Integer) {
        int64_t sum = 0;
        for (size_t kk = 0; kk < k; ++kk)
          sum += (s.a_signed ? int64_t(int8_t(a[i * k + kk])) : a[i * k + kk]) * (s.b_signed ? int64_t(int8_t(b[j * k + kk])) : b[j * k + kk]);
        const int64_t want = s.saturate ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX) : int64_t(int32_t(uint32_t(uint64_t(sum))));
        if (int64_t(int32_t(got)) != want) fail(s, "integer result is not the exact sum wrapped or clamped");
        continue;
      }
      // The chain: each instruction step adds its K products to the previous step's FP32 result
      // exactly and rounds once.
      mpq_class acc = 0, x, y;
      bool finite = true, overflow = false;
      for (size_t step = 0; step < k / size_t(s.k) && finite && !overflow; ++step) {
        mpq_class sum = acc;
        for (size_t kk = step * size_t(s.k); kk < (step + 1) * size_t(s.k) && finite; ++kk) {
          finite = element(s, s.a_format, &a[i * k * width], kk, x) && element(s, s.b_format, &b[j * k * width], kk, y);
          if (finite) sum += x * y;
        }
        const oracle::Rounded r = oracle::round(sum, oracle::binary32(), true);
        overflow = r.overflow;
        acc = r.value;
      }
      if (!finite || overflow) continue;
      mpq_class value;
      if (!exact_value(FormatId::FP32, got, value) || value != acc) {
        std::fprintf(stderr, "got %08x = %s, want %s\n", got, value.get_str().c_str(), acc.get_str().c_str());
        fail(s, "ideal result is not the chain of exact sums rounded once per instruction");
      }
    }
  return 0;
}
