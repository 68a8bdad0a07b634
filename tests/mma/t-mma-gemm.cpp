// The GEMM driver: the integer fast path (VNNI and portable) equal to the general instruction
// chain, with and without overflow; the FP chain equal to stepping execute() by hand.
#include "common/rng.hpp"
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
