// The emulated GEMM's fused complex + crt + unscale (device/stages/ozaki2/crt_unscale.cuh: the body
// each thread of bench_gpu_pipeline's fused kernels runs), compiled for the host and run on every
// element group of small results, against two oracles that share no code with it:
//   - the CPU stages complex, crt and unscale of the scheme it emulates (ozaki2-int8 built through
//     the registry: Gaussian, 3M or real), run on the same plane products and shifts;
//   - GMP: plane products made from known integers Re C', Im C' in (-P/2, P/2], whose correctly
//     rounded C' 2^e (the rational oracle's rounding) the fused body must give.
// Residues at the ends of the balanced range and shifts at the exponent limits (C' 2^e subnormal,
// zero, at the overflow threshold) are weighted up.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/rng.hpp"
#include "gmp_residue.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/registry.hpp"
#include "schemes/common/fp64_rounding.hpp"
#include "stages/ozaki2/crt_tables.hpp"
#include "stages/ozaki2/crt_unscale.cuh"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;
namespace twin = ozref::device::ozaki2;

namespace {

enum class Kind { Real, ThreeM, Gaussian };
const char* kind_name(Kind k) { return k == Kind::Real ? "real" : k == Kind::ThreeM ? "3m" : "gaussian"; }
size_t parts_of(Kind k) { return k == Kind::Real ? 1 : 2; }
size_t planes_of(Kind k) { return k == Kind::Real ? 1 : k == Kind::ThreeM ? 3 : 2; }

// The scheme the fused body implements, for an m x n result (K = 1: no stage here depends on it).
Scheme scheme_of(Kind kind, size_t N, size_t m, size_t n) {
  SchemeOptions o;
  o.moduli = N;
  o.mode = "fast";
  o.complex = kind != Kind::Real;
  if (kind == Kind::Gaussian) o.complex_product = "gaussian";
  return build_scheme("ozaki2-int8", o, m, n, 1);
}

template <typename T>
void put(Arrays& a, ArrayRef r, DType dtype, const std::vector<T>& values) {
  Tensor& t = a.put(r, Tensor(dtype, {values.size()}));
  std::memcpy(t.raw(), values.data(), values.size() * sizeof(T));
}

// C (parts x m x n) of the scheme's CPU stages complex (a complex run), crt and unscale from the
// plane products (N x planes x m x n, the reduce stage's output) and the shifts; each stage's
// contract checked on its outputs too.
std::vector<double> cpu_stages(const Scheme& s, const std::vector<int16_t>& products, const std::vector<int32_t>& row, const std::vector<int32_t>& col) {
  Arrays a;
  put(a, {"reduce", "c"}, DType::I2, products);
  put(a, {"scale", "row_shift"}, DType::I4, row);
  put(a, {"scale", "col_shift"}, DType::I4, col);
  for (const char* name : {"complex", "crt", "unscale"}) {
    const Stage* st = s.find(name);
    if (!st) continue;  // a real run has no complex stage
    for (const ArraySpec& spec : st->outputs()) a.put(st->ref(spec.name), Tensor(spec)).fill_canary();
    for (size_t b = 0; b < st->batches(); ++b) st->compute(a, a, b);
    StageReport report;
    for (size_t b = 0; b < st->batches(); ++b) st->verify(a, a, b, Verify::Cheap, report);
    INFO("cpu stage " << name << ": " << report.first_violation);
    REQUIRE(report.violations == 0);
  }
  const Tensor& c = a.get({"unscale", "c"});
  return std::vector<double>(c.as<double>(), c.as<double>() + c.elements());
}

// C of the fused body, thread by thread as the kernel runs it (E elements a thread; the kernel
// takes E = 4 where 4 divides n).
template <int E>
std::vector<double> fused(Kind kind, const std::vector<int64_t>& moduli, size_t m, size_t n, const std::vector<int16_t>& products,
                          const std::vector<int32_t>& row, const std::vector<int32_t>& col) {
  REQUIRE(n % E == 0);
  const twin::CrtTables tables = twin::crt_tables(Crt(moduli));
  const size_t count = parts_of(kind) * m * n;
  std::vector<double> out(count, std::numeric_limits<double>::quiet_NaN());  // the canary
  const twin::GaussianTable g = kind == Kind::Gaussian ? twin::gaussian_table(moduli) : twin::GaussianTable{};
  const twin::ModuliTable mt = twin::moduli_table(moduli);
  twin::with_words(tables.words, [&](auto words) {
    const twin::CrtConstants<words> k = twin::crt_constants<words>(tables);
    for (size_t x = 0; x < count; x += E) {
      if (kind == Kind::Gaussian) twin::gaussian_crt_unscale_elements<words, E>(x, products.data(), m, n, k, g, row.data(), col.data(), out.data());
      else if (kind == Kind::ThreeM) twin::three_m_crt_unscale_elements<words, E>(x, products.data(), m, n, k, mt, row.data(), col.data(), out.data());
      else twin::crt_unscale_elements<words, E>(x, products.data(), 1, m, n, k, row.data(), col.data(), out.data());
    }
  });
  return out;
}

// A balanced residue modulo m, the two ends of the range one time in three.
int64_t balanced_pick(Rng& rng, int64_t m) {
  const int64_t lo = -(m / 2), hi = (m - 1) / 2;
  if (rng.next() % 3 == 0) return rng.next() & 1 ? lo : hi;
  return lo + static_cast<int64_t>(rng.next() % static_cast<uint64_t>(m));
}

// Shifts whose exponents e = -(row_i + col_j) reach the limits for integers of about `bits` bits:
// row i % 4 = 0 from total underflow through the subnormals, 1 at the overflow threshold, 2 at the
// smallest normal, 3 anywhere moderate; col_j moves e by a few.
void pick_shifts(Rng& rng, int bits, std::vector<int32_t>& row, std::vector<int32_t>& col) {
  for (size_t i = 0; i < row.size(); ++i) {
    const int spread = static_cast<int>(rng.next() % 9) - 4;
    int e = 0;
    switch (i % 4) {
      case 0: e = -1074 - bits + static_cast<int>(rng.next() % static_cast<uint64_t>(bits + 60)); break;
      case 1: e = 1024 - bits + spread; break;
      case 2: e = -1022 - bits + spread; break;
      default: e = static_cast<int>(rng.next() % 401) - 200; break;
    }
    row[i] = -e;
  }
  for (int32_t& c : col) c = static_cast<int32_t>(rng.next() % 7) - 3;
}

int bits_of(const Crt& crt) { return static_cast<int>(mpz_sizeinbase(crt.product().get_mpz_t(), 2)); }

// The moduli lists of the three kinds as the registry resolves them (every count it takes).
std::vector<int64_t> moduli_of(Kind kind, size_t N) { return scheme_of(kind, N, 1, 1).resolved.at("moduli").get<std::vector<int64_t>>(); }
size_t max_moduli(Kind kind) { return kind == Kind::Gaussian ? gaussian_int8_moduli().size() : int8_moduli().size(); }

using test::gmp_balanced_residue;

// An integer in (floor(P/2) - P, floor(P/2)]: either end, 0, +-1, or a random one of up to P's bits.
mpz_class crt_range_pick(Rng& rng, const mpz_class& P) {
  const mpz_class half = P / 2, low = half - P + 1;
  switch (rng.next() % 8) {
    case 0: return half;
    case 1: return low;
    case 2: return mpz_class(static_cast<long>(rng.next() % 3) - 1);
    default: {
      mpz_class x = 0;
      for (size_t b = 0; b < mpz_sizeinbase(P.get_mpz_t(), 2) + 32; b += 32) x = (x << 32) + static_cast<unsigned long>(rng.next() & 0xffffffffu);
      mpz_class r;
      mpz_fdiv_r(r.get_mpz_t(), x.get_mpz_t(), P.get_mpz_t());
      return r + low;  // in [low, low + P) = (half - P, half]
    }
  }
}

// Plane products (N x planes x m x n) whose combination is Re, Im (or the real C') of every element:
// Gaussian Z = Re + iota Im, W = Re - iota Im; 3M T1 = Re + T2, T3 = Im + T1 + T2 (T2 random); mod m.
std::vector<int16_t> planes_of_values(Rng& rng, Kind kind, const std::vector<int64_t>& moduli, size_t mn, const std::vector<mpz_class>& values) {
  const size_t N = moduli.size(), Q = planes_of(kind);
  std::vector<int16_t> p(N * Q * mn);
  for (size_t t = 0; t < N; ++t) {
    const int64_t m = moduli[t];
    const int64_t iota = kind == Kind::Gaussian ? sqrt_minus_one(m) : 0;
    if (kind == Kind::Gaussian) REQUIRE((iota * iota + 1) % m == 0);
    for (size_t v = 0; v < mn; ++v) {
      const mpz_class& re = values[v];
      const mpz_class im = kind == Kind::Real ? mpz_class(0) : values[mn + v];
      int64_t q[3] = {};
      if (kind == Kind::Real) q[0] = gmp_balanced_residue(re, m);
      if (kind == Kind::Gaussian) q[0] = gmp_balanced_residue(re + iota * im, m), q[1] = gmp_balanced_residue(re - iota * im, m);
      if (kind == Kind::ThreeM) {
        q[1] = balanced_pick(rng, m);
        q[0] = gmp_balanced_residue(re + q[1], m);
        q[2] = gmp_balanced_residue(im + q[0] + q[1], m);
      }
      for (size_t j = 0; j < Q; ++j) p[(t * Q + j) * mn + v] = static_cast<int16_t>(q[j]);
    }
  }
  return p;
}

bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

constexpr size_t kRows = 8;

}  // namespace

TEST_CASE("fused crt+unscale: the kernels' per-thread bodies equal the CPU stages complex, crt and unscale, bit for bit", "[device]") {
  Rng rng(test::seed() + 17);
  test::CaseCount cases("fused body elements against the CPU stages");
  for (Kind kind : {Kind::Gaussian, Kind::ThreeM, Kind::Real})
    for (size_t N = 2; N <= max_moduli(kind); ++N)
      for (size_t n : {size_t{8}, size_t{7}}) {
        const Scheme s = scheme_of(kind, N, kRows, n);
        const std::vector<int64_t> moduli = s.resolved.at("moduli").get<std::vector<int64_t>>();
        const int bits = bits_of(Crt(moduli));
        for (int trial = 0; trial < 4 * int(test::level()); ++trial) {
          const size_t mn = kRows * n, Q = planes_of(kind);
          std::vector<int16_t> products(N * Q * mn);
          for (size_t t = 0; t < N; ++t)
            for (size_t x = 0; x < Q * mn; ++x) products[t * Q * mn + x] = static_cast<int16_t>(balanced_pick(rng, moduli[t]));
          std::vector<int32_t> row(kRows), col(n);
          pick_shifts(rng, bits, row, col);
          const std::vector<double> want = cpu_stages(s, products, row, col);
          std::vector<std::vector<double>> got = {fused<1>(kind, moduli, kRows, n, products, row, col)};
          if (n % 4 == 0) got.push_back(fused<4>(kind, moduli, kRows, n, products, row, col));
          for (const std::vector<double>& g : got)
            for (size_t x = 0; x < want.size(); ++x) {
              INFO(kind_name(kind) << ", " << N << " moduli, n " << n << ", trial " << trial << ", element " << x << ": fused " << g[x] << ", cpu "
                                   << want[x]);
              REQUIRE(same_bits(g[x], want[x]));
              ++cases;
            }
        }
      }
  // Gaussian 2..22 moduli, 3M and real 2..20; per count 4 trials of (8 x 8 twice, E = 1 and 4, and 8 x 7 once) x parts.
  cases.report(4 * (21 * 2 * 184 + 19 * 2 * 184 + 19 * 184));
}

TEST_CASE("fused crt+unscale: from plane products of known Re C', Im C', the bodies give their correct rounding (GMP)", "[device]") {
  Rng rng(test::seed() + 18);
  test::CaseCount cases("fused body elements against GMP");
  size_t ends = 0;  // elements at either end of (-P/2, P/2]
  for (Kind kind : {Kind::Gaussian, Kind::ThreeM, Kind::Real})
    for (size_t N = 2; N <= max_moduli(kind); ++N) {
      const std::vector<int64_t> moduli = moduli_of(kind, N);
      const Crt crt(moduli);
      const int bits = bits_of(crt);
      constexpr size_t n = 8;
      for (int trial = 0; trial < 4 * int(test::level()); ++trial) {
        const size_t mn = kRows * n, count = parts_of(kind) * mn;
        std::vector<mpz_class> values(count);
        for (mpz_class& v : values) {
          v = crt_range_pick(rng, crt.product());
          ends += v == crt.product() / 2 || v == crt.product() / 2 - crt.product() + 1;
        }
        const std::vector<int16_t> products = planes_of_values(rng, kind, moduli, mn, values);
        std::vector<int32_t> row(kRows), col(n);
        pick_shifts(rng, bits, row, col);
        const std::vector<double> one = fused<1>(kind, moduli, kRows, n, products, row, col), four = fused<4>(kind, moduli, kRows, n, products, row, col);
        for (size_t x = 0; x < count; ++x) {
          const size_t v = x % mn, i = v / n, j = v % n;
          const int e = -(row[i] + col[j]);
          INFO(kind_name(kind) << ", " << N << " moduli, trial " << trial << ", element " << x << ": C' " << values[x].get_str() << ", e " << e
                               << ", fused " << one[x] << " / " << four[x]);
          REQUIRE(is_correct_rounding(values[x], e, one[x]));
          REQUIRE(same_bits(one[x], four[x]));
          ++cases;
        }
      }
    }
  cases.report(4 * (21 * 128 + 19 * 128 + 19 * 64));
  REQUIRE(ends > 100);  // the range's ends were reached (1 in 4 picks)
}
