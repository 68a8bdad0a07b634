// The GEMM driver: the integer fast path (VNNI and portable) equal to the general instruction
// chain, with and without overflow; the FP chain equal to stepping execute() by hand.
#include <bit>

#include "common/rng.hpp"
#include "formats/encode.hpp"
#include "mma/exact_regime.hpp"
#include "mma/execute.hpp"
#include "mma/gemm.hpp"
#include "mma/int8_gemm.hpp"
#include "common/error.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("mma gemm: integer fast paths equal the instruction chain", "[mma]") {
  Rng rng(test::seed());
  test::CaseCount cases("integer gemm elements compared");
  test::CaseCount wrapped("elements whose exact sum left the int32 range");
  for (const auto& spec : mma::arch("sm_90").instructions) {
    if (spec.kind != mma::Kind::Integer) continue;
    for (auto [m, n, k, big_c] : {std::tuple{7, 33, 64, false}, {17, 40, 320, true}, {1, 1, 32, true}, {9, 65, 2048, false}}) {
      std::vector<uint8_t> a(size_t(m) * k), b(size_t(n) * k);
      for (auto& v : a) v = uint8_t(rng.next());
      for (auto& v : b) v = uint8_t(rng.next());
      std::vector<uint32_t> c(size_t(m) * n);
      for (auto& v : c) v = big_c ? uint32_t(0x7FF00000u + rng.below(1 << 20)) * (rng.below(2) ? 1u : 0xFFFFFFFFu) : uint32_t(rng.next() >> 8);
      const mma::GemmOperands x{size_t(m), size_t(n), size_t(k), a, b, {}, {}, c};
      const auto general = mma::gemm(spec, x, {.threads = 2, .allow_fast_path = false});
      for (bool portable : {false, true}) {
        mma::force_portable_int8_gemm(portable);
        const auto fast = mma::gemm(spec, x, {.threads = 2});
        mma::force_portable_int8_gemm(false);
        INFO(spec.op << " " << m << "x" << n << "x" << k << (portable ? " portable" : " vnni"));
        REQUIRE(fast == general);
        cases += fast.size();
      }
      if (!spec.saturate)
        for (size_t i = 0; i < general.size(); ++i) {
          int64_t exact = int32_t(c[i]);
          for (int kk = 0; kk < k; ++kk) {
            const size_t r = i / n, col = i % n;
            exact += (spec.a_signed ? int64_t(int8_t(a[r * k + kk])) : int64_t(a[r * k + kk])) *
                     (spec.b_signed ? int64_t(int8_t(b[col * k + kk])) : int64_t(b[col * k + kk]));
          }
          if (exact > INT32_MAX || exact < INT32_MIN) ++wrapped;
        }
    }
  }
  INFO("VNNI on this CPU: " << mma::cpu_has_vnni());
  cases.report(8 * 2 * (7 * 33 + 17 * 40 + 1 + 9 * 65));
  wrapped.report(100);
}

TEST_CASE("mma gemm: the FP chain feeds each step's D into the next step's C", "[mma]") {
  Rng rng(test::seed() + 1);
  const auto& spec = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  const size_t m = 3, n = 2, k = 96;
  std::vector<uint8_t> a(m * k), b(n * k);
  for (auto& v : a) v = uint8_t(rng.next() & 0x7E);  // finite, positive
  for (auto& v : b) v = uint8_t(rng.next() & 0x7E);
  const auto d = mma::gemm(spec, {m, n, k, a, b, {}, {}, {}});
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      uint32_t acc = 0;
      for (size_t s = 0; s < k / 32; ++s)
        acc = mma::execute(spec, {std::span(a).subspan(i * k + s * 32, 32), std::span(b).subspan(j * k + s * 32, 32), acc, {}, {}});
      REQUIRE(d[i * n + j] == acc);
    }
  CHECK_THROWS_AS(mma::gemm(spec, {m, n, 40, a, b, {}, {}, {}}), InputError);
}

TEST_CASE("mma gemm: the FP exact-regime fast path equals the instruction chain", "[mma]") {
  Rng rng(test::seed() + 2);
  test::CaseCount taken("FP gemms where the exact-regime fast path applied");
  test::CaseCount refused("FP gemms the fast path refused (outside its bound)");
  for (const std::string& name : mma::arch_names())
    for (const auto& spec : mma::arch(name).instructions) {
      if (spec.kind != mma::Kind::Float) continue;
      const FormatSpec& f = format_spec(spec.a_format);
      for (int range : {1, 3, 12}) {  // element magnitudes; 12 pushes the sums past 2^13
        const size_t m = 5, n = 6, k = size_t(spec.k) * 8;
        std::vector<uint8_t> a(m * mma::operand_bytes(spec) * 8), b(n * mma::operand_bytes(spec) * 8);
        auto put = [&](std::vector<uint8_t>& v, size_t idx, int value) {
          // value in units of 2^-s (s = 1 for E2M1, whose values are halves)
          const int s = spec.a_format == FormatId::E2M1 ? 1 : 0;
          const ExactValue ev{value == 0 ? FloatClass::Zero : FloatClass::Normal, value < 0, uint64_t(std::abs(value)), -s};
          const uint32_t bits = uint32_t(encode(f, ev, Rounding::NearestEven, Overflow::SatFinite).bits);
          const size_t st = idx / size_t(spec.k), kk = idx % size_t(spec.k), base = st * mma::operand_bytes(spec);
          if (spec.packing == mma::Packing::Half) { v[base + 2 * kk] = uint8_t(bits >> 8); v[base + 2 * kk + 1] = uint8_t(bits); }
          else if (spec.packing == mma::Packing::PaddedFp4) v[base + kk] = uint8_t(bits << 2);
          else v[base + kk] = uint8_t(bits);
        };
        const int lim = spec.a_format == FormatId::E2M1 ? std::min(range, 4) : range;
        for (size_t i = 0; i < m; ++i)
          for (size_t kk = 0; kk < k; ++kk) put(a, i * k + kk, int(rng.below(2 * lim + 1)) - lim);
        for (size_t j = 0; j < n; ++j)
          for (size_t kk = 0; kk < k; ++kk) put(b, j * k + kk, int(rng.below(2 * lim + 1)) - lim);
        std::vector<uint32_t> c(m * n);
        for (auto& v : c) v = std::bit_cast<uint32_t>(float(int(rng.below(2001)) - 1000));
        const mma::GemmOperands x{m, n, k, a, b, {}, {}, c};
        const auto general = mma::gemm(spec, x, {.threads = 2, .allow_fast_path = false});
        const auto fast = mma::gemm(spec, x, {.threads = 2});
        INFO(name << " " << spec.op << " range " << range);
        REQUIRE(fast == general);
        std::vector<uint32_t> probe(x.m * x.n);
        if (mma::exact_regime_gemm(spec, x, 2, probe)) ++taken; else ++refused;
      }
    }
  taken.report(20);
  refused.report(1);
}
