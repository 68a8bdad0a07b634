// ozaki2-int8 end to end: exact on integer inputs within its bound (bit-identical to the correctly
// rounded exact product) on every INT8 model and CRT variant; scale invariance under powers of
// two; thread-count invariance; bad input refused; traces written and diffed.
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "cli/verbs.hpp"
#include "trace/manifest.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "schemes/ozaki2/gemmul8_fast.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "support.hpp"
#include "trace_support.hpp"

using namespace ozref;
using namespace ozref::schemes;

TEST_CASE("ozaki2-int8: integer inputs within the bound are reproduced bit for bit", "[schemes]") {
  Rng rng(test::seed());
  test::CaseCount cases("ozaki2-int8 integer runs");
  for (const std::string arch : {"ideal", "sm_90", "sm_80", "sm_120"})
    for (CrtVariant crt : {CrtVariant::Exact, CrtVariant::Garner})
      for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {
        const Distribution d{Distribution::Integers, 1000};
        const Matrix<double> a = random_matrix(9, 70, d, rng), b = random_matrix(70, 11, d, rng);
        Ozaki2Options o;
        o.moduli = 14;  // 110 bits: K * 1000^2 < 2^30, far below P/2, so truncation loses nothing
        o.arch = arch;
        o.crt = crt;
        o.mode = mode;
        const SchemeResult r = run_ozaki2(a, b, o, nullptr);
        INFO(arch << " crt " << to_string(crt) << (mode == ScalingMode::Fast ? " fast" : " accurate"));
        for (const auto& s : r.stages) {
          INFO(s.name << ": " << s.first_violation);
          REQUIRE(s.holds());
        }
        REQUIRE(r.exact);
        REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
        REQUIRE(r.low_precision_gemms == 14u + (mode == ScalingMode::Accurate ? 1u : 0u));
        ++cases;
      }
  cases.report(16);
}

TEST_CASE("ozaki2-int8: scaling rows of A and columns of B by powers of two scales C exactly", "[schemes]") {
  Rng rng(test::seed() + 1);
  const Distribution d{Distribution::Phi, 2.0};
  const Matrix<double> a = random_matrix(7, 40, d, rng), b = random_matrix(40, 5, d, rng);
  Matrix<double> a2 = a, b2 = b;
  const int row_exp[7] = {40, -30, 0, 7, -100, 3, 200}, col_exp[5] = {-5, 60, 0, -300, 11};
  for (size_t i = 0; i < 7; ++i)
    for (size_t k = 0; k < 40; ++k) a2(i, k) = std::ldexp(a(i, k), row_exp[i]);
  for (size_t k = 0; k < 40; ++k)
    for (size_t j = 0; j < 5; ++j) b2(k, j) = std::ldexp(b(k, j), col_exp[j]);
  for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {
    Ozaki2Options o;
    o.mode = mode;
    const SchemeResult r1 = run_ozaki2(a, b, o, nullptr), r2 = run_ozaki2(a2, b2, o, nullptr);
    for (size_t i = 0; i < 7; ++i)
      for (size_t j = 0; j < 5; ++j) {
        INFO((mode == ScalingMode::Fast ? "fast" : "accurate") << " C[" << i << "," << j << "]");
        REQUIRE(r2.c(i, j) == std::ldexp(r1.c(i, j), row_exp[i] + col_exp[j]));
      }
  }
}

TEST_CASE("ozaki2-int8: results do not depend on the thread count", "[schemes]") {
  Rng rng(test::seed() + 2);
  const Distribution d{Distribution::Phi, 1.0};
  const Matrix<double> a = random_matrix(33, 100, d, rng), b = random_matrix(100, 17, d, rng);
  Ozaki2Options o1, o2;
  o1.threads = 1;
  o2.threads = 2;
  o1.arch = o2.arch = "sm_90";
  const SchemeResult r1 = run_ozaki2(a, b, o1, nullptr), r2 = run_ozaki2(a, b, o2, nullptr);
  REQUIRE(r1.c.data.size() == 33 * 17);
  for (size_t i = 0; i < r1.c.size(); ++i) REQUIRE(std::bit_cast<uint64_t>(r1.c.data[i]) == std::bit_cast<uint64_t>(r2.c.data[i]));
}

TEST_CASE("ozaki2-int8: bad input is refused with a clear error", "[schemes]") {
  Matrix<double> a(2, 3, 1.0), b(3, 2, 1.0);
  a(1, 2) = std::nan("");
  CHECK_THROWS_WITH(run_ozaki2(a, b, {}, nullptr), Catch::Contains("A[1,2] is not finite"));
  a(1, 2) = 1.0;
  Ozaki2Options o;
  o.moduli = 21;
  CHECK_THROWS_WITH(run_ozaki2(a, b, o, nullptr), Catch::Contains("--moduli must be 2..20"));
  CHECK_THROWS_WITH(run_ozaki2(Matrix<double>(1, 131072, 1.0), Matrix<double>(131072, 1, 1.0), {}, nullptr),
                    Catch::Contains("exceeds the bound 131071"));
}

TEST_CASE("ozaki2-int8: traces are written, identical runs diff clean, a changed run diverges at the right stage", "[schemes]") {
  const auto dir = std::filesystem::temp_directory_path() / ("ozref-trace-" + std::to_string(::getpid()));
  auto run = [&](const std::string& name, size_t moduli) {
    cli::RunArgs args;
    args.m = 12;
    args.n = 10;
    args.k = 64;
    args.options.moduli = moduli;
    args.dump = (dir / name).string();
    std::ostringstream out;
    REQUIRE(cli::run_run(args, out) == 0);
  };
  run("a", 16);
  run("b", 16);
  run("c", 16);
  // Perturb one GEMM output in trace c (its manifest updated, as a kernel writing that value would
  // write it): diff must point at stage "gemm".
  NpyArray g = read_npy((dir / "c" / "gemm.c.npy").string());
  g.data[4 * 37] ^= 1;
  test::replace_trace_array((dir / "c").string(), "gemm", "c", g);
  std::ostringstream same, changed;
  CHECK(cli::run_diff({(dir / "a").string(), (dir / "b").string(), false}, same) == 0);
  CHECK(same.str().find("identical: 17 arrays") != std::string::npos);  // input 2, bound 5, scale 2, truncate 2, residues 2, gemm, reduce, crt, unscale
  CHECK(cli::run_diff({(dir / "a").string(), (dir / "c").string(), false}, changed) == 1);
  CHECK(changed.str().find("stage 'gemm', array 'c'") != std::string::npos);
  CHECK(changed.str().find("1 elements differ; first at [modulus 256, i 3, j 7]") != std::string::npos);  // element 37 of m = n = 10 in modulus 0
  // The same change without its manifest entry: the array no longer is what the manifest says.
  g.data[4 * 38] ^= 1;
  write_npy((dir / "c" / "gemm.c.npy").string(), g);
  CHECK_THROWS_WITH(cli::run_diff({(dir / "a").string(), (dir / "c").string(), false}, changed),
                    Catch::Contains("gemm.c.npy (stage \"gemm\", array \"c\"): its FNV-1a hash differs from the manifest's"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("ozaki2: a trace's residues of B are (N, n, k) and its GEMM outputs their products with A's", "[schemes]") {
  // B's residues are held column by column (the GEMMs' B operand), the layout docs/schemes.md
  // documents. Checked against the trace's own truncate stage (congruence per modulus) and, for
  // int8, the gemm stage (each output the integer product of the planes).
  const auto dir = std::filesystem::temp_directory_path() / ("ozref-trace-layout-" + std::to_string(::getpid()));
  size_t cases = 0;
  for (const std::string scheme : {"ozaki2-int8", "ozaki2-fp8", "ozaki2-fp4"}) {
    cli::RunArgs args;
    args.scheme = scheme;
    args.m = 5, args.n = 7, args.k = 33;
    args.options.moduli = 4;
    args.dump = (dir / scheme).string();
    std::ostringstream out;
    REQUIRE(cli::run_run(args, out) == 0);
    const Manifest manifest = read_manifest(args.dump);
    std::map<std::string, NpyArray> t;
    for (const ManifestStage& stage : manifest.stages)
      for (const ManifestArray& x : stage.arrays) t[stage.name + "." + x.name] = read_trace_array(manifest, stage, x);
    const NpyArray &truncated = t.at("truncate.b"), &res_a = t.at("residues.a"), &res_b = t.at("residues.b");
    REQUIRE(res_b.shape == std::vector<size_t>{4, 7, 33});
    const bool int8 = scheme == "ozaki2-int8";
    auto residue = [&](const NpyArray& x, size_t i) -> int64_t {  // i1 for moduli up to 256 (int8, fp4), else i2
      return x.dtype == DType::I1 ? int64_t(reinterpret_cast<const int8_t*>(x.data.data())[i])
                                  : int64_t(reinterpret_cast<const int16_t*>(x.data.data())[i]);
    };
    const std::vector<int64_t>& moduli = ozaki2_family(scheme == "ozaki2-int8" ? Ozaki2Variant::Int8 : scheme == "ozaki2-fp8" ? Ozaki2Variant::Fp8 : Ozaki2Variant::Fp4).moduli;
    for (size_t q = 0; q < 4; ++q)
      for (size_t v = 0; v < 33 * 7; ++v) {
        const double integer = reinterpret_cast<const double*>(truncated.data.data())[v];  // B'[kk][j], v = kk * 7 + j
        REQUIRE((int64_t(std::fmod(integer, double(moduli[q]))) - residue(res_b, (q * 7 + v % 7) * 33 + v / 7)) % moduli[q] == 0);
        ++cases;
      }
    if (!int8) continue;
    const int32_t* gemm = reinterpret_cast<const int32_t*>(t.at("gemm.c").data.data());
    for (size_t q = 0; q < 4; ++q)
      for (size_t i = 0; i < 5; ++i)
        for (size_t j = 0; j < 7; ++j) {
          int64_t sum = 0;
          for (size_t kk = 0; kk < 33; ++kk) sum += residue(res_a, (q * 5 + i) * 33 + kk) * residue(res_b, (q * 7 + j) * 33 + kk);
          REQUIRE(gemm[(q * 5 + i) * 7 + j] == sum);
          ++cases;
        }
  }
  std::printf("trace layouts: %zu elements checked\n", cases);
  std::filesystem::remove_all(dir);
}

TEST_CASE("ozaki2-int8 --mode gemmul8-fast: GEMMul8's shift formula, its CRT overflow on small data reported", "[schemes]") {
  // Hand evaluation of the formula (gemmul8_fast.hpp) for 14 moduli, log2P_14 = RD(log2(P-1)/2 - 0.5):
  //   v = 4: e = 2, f = 1, l = 2; x = RD(log2P - 2) - 2 = 50.58..; shift = 50 - ilogb(1.5) = 50.
  //   v = 3: e = 1, f = 1.5, l = 0.5 log2 1.5 + 1 = 1.29..; x = 51.28..; shift = 51 - ilogb(0.3) = 53.
  const float log2p = gemmul8_log2p(std::log2(1.4514553294160867e33));  // P(14) - 1 = 1451455329416086687492492043070719
  REQUIRE(std::fabs(log2p - 54.5805f) < 1e-3f);
  CHECK(gemmul8_fast_shift(1.5, 4.0, log2p) == 50);
  CHECK(gemmul8_fast_shift(0.3, 3.0, log2p) == 53);
  CHECK(gemmul8_fast_shift(0.0, 0.0, log2p) == 0);
  // Non-negative data below 2^-6: the shift counts the row's scale twice and the CRT range is
  // lost; the truncate stage reports it and the run is not exact. The scale-invariant fast mode
  // stays exact on the same data.
  Rng rng(test::seed() + 60);
  Matrix<double> a = random_matrix(6, 512, {Distribution::Uniform, 0}, rng), b = random_matrix(512, 5, {Distribution::Uniform, 0}, rng);
  for (double& x : a.data) x = std::ldexp(std::fabs(x), -10);
  for (double& x : b.data) x = std::ldexp(std::fabs(x), -10);
  Ozaki2Options o;
  o.moduli = 14;
  o.mode = ScalingMode::Gemmul8Fast;
  const SchemeResult bad = run_ozaki2(a, b, o, nullptr);
  REQUIRE(bad.stages[1].name == "truncate");
  REQUIRE(bad.stages[1].first_violation.find("CRT bound") != std::string::npos);
  REQUIRE_FALSE(bad.exactness_conditions);
  REQUIRE_FALSE(bad.exact);
  REQUIRE(bad.accuracy.correct_bits_maxnorm < 10);
  o.mode = ScalingMode::Fast;
  const SchemeResult good = run_ozaki2(a, b, o, nullptr);
  REQUIRE(good.exact);
  REQUIRE(good.accuracy.correct_bits_maxnorm > 40);
}
