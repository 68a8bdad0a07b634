// verify-trace and the runner's subjects, on every scheme: a scheme's own trace verifies at every
// stage; tracing does not change the arithmetic; a fault planted in one stage of a kernel (whose
// later stages consume its own outputs) is found at that stage while the later stages still
// verify; a different valid scaling verifies and one that breaks the exactness condition is
// caught; partial traces work; a GEMM fault leaves a reproducer that mma-check replays; malformed
// traces are refused naming the file and field.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

#include "cli/scheme_inputs.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/registry.hpp"
#include "support.hpp"
#include "trace_support.hpp"

using namespace ozref;
using namespace ozref::schemes;

namespace {

constexpr size_t kM = 7, kN = 5, kK = 40;

struct Config {
  std::string label, scheme;
  SchemeOptions options;
  std::string dist = "phi:1";
};

SchemeOptions with(std::function<void(SchemeOptions&)> f) {
  SchemeOptions o;
  f(o);
  return o;
}

std::vector<Config> configs() {
  return {
      {"ozaki2-int8", "ozaki2-int8", {}},
      {"ozaki2-int8 fast garner", "ozaki2-int8", with([](SchemeOptions& o) { o.mode = "fast", o.crt = "garner"; })},
      {"ozaki2-int8 dd", "ozaki2-int8", with([](SchemeOptions& o) { o.crt = "dd"; })},
      {"ozaki2-int8 18 moduli (GMP CRT)", "ozaki2-int8", with([](SchemeOptions& o) { o.moduli = 18; })},
      {"ozaki2-int8 complex", "ozaki2-int8", with([](SchemeOptions& o) { o.complex = true; })},
      {"ozaki2-int8 complex gaussian", "ozaki2-int8", with([](SchemeOptions& o) { o.complex = true, o.complex_product = "gaussian"; })},
      {"ozaki2-fp8", "ozaki2-fp8", {}},
      {"ozaki2-fp8 complex", "ozaki2-fp8", with([](SchemeOptions& o) { o.complex = true, o.moduli = 8; })},
      {"ozaki2-fp4", "ozaki2-fp4", with([](SchemeOptions& o) { o.arch = "sm_120"; })},
      {"rare", "rare", {}},
      {"ozaki1-int8", "ozaki1-int8", {}},
      {"ozaki1-int8 cublas", "ozaki1-int8", with([](SchemeOptions& o) { o.slicing = "cublas"; })},
      {"ozaki1-int8 fused", "ozaki1-int8", with([](SchemeOptions& o) { o.accumulate = "fused"; })},
      {"ozaki1-int8 fp64", "ozaki1-int8", with([](SchemeOptions& o) { o.accumulate = "fp64"; })},
      {"ozaki1-int8 complex", "ozaki1-int8", with([](SchemeOptions& o) { o.complex = true; })},
      {"ozaki1-fp4", "ozaki1-fp4", with([](SchemeOptions& o) { o.slices = 6, o.arch = "sm_100"; })},
      {"int8-on-fp4", "int8-on-fp4", {}, "integers:127"},
      // Three K-blocks (16, 16, 8), each with its own scales; and a DYNAMIC count, 16 slices.
      {"cublas-fixedpoint 55 bits", "cublas-fixedpoint@13.1", with([](SchemeOptions& o) { o.mantissa_bits = "55", o.kblock = 16; })},
      {"cublas-fixedpoint 124 bits", "cublas-fixedpoint@13.1", with([](SchemeOptions& o) { o.mantissa_bits = "124"; })},
  };
}

Scheme scheme_of(const Config& c) { return build_scheme(c.scheme, c.options, kM, kN, kK); }

Arrays inputs_of(const Config& c) { return cli::scheme_inputs_generated(kM, kN, kK, c.dist, test::seed(), c.options.complex).arrays; }

// Runs `c` (with `subject` in place of the CPU where not null) and writes its trace into `dir`
// (unverified with a subject: verify-trace is what checks it).
SchemeResult write_trace(const Config& c, const std::string& dir, Subject* subject) {
  const Scheme s = scheme_of(c);
  TraceWriter w(dir, trace_header(s, c.dist, test::seed()));
  SchemeResult r = run_scheme(s, inputs_of(c), {.verify = subject ? Verify::None : Verify::Full, .trace = &w, .subject = subject});
  w.finish();
  return r;
}

nlohmann::json verify_trace(const std::string& dir, int& code) {
  cli::VerifyTraceArgs args;
  args.dir = dir;
  args.json = true;
  std::ostringstream out;
  code = cli::run_verify_trace(args, out);
  return nlohmann::json::parse(out.str());
}

// A different value that the next stage can still take: the nearest element of the same innermost
// row holding another value, or (a constant row) the value plus one unit.
void plant_fault(Tensor& t) {
  const size_t size = dtype_size(t.dtype()), row = t.shape().empty() ? 1 : t.shape().back(), mid = t.elements() / 2;
  uint8_t* at = t.raw() + mid * size;
  const size_t first = mid - mid % row;
  for (size_t d = 1; d < row; ++d)
    for (size_t other : {mid + d, mid - d})
      if (other >= first && other < first + row && std::memcmp(t.raw() + other * size, at, size) != 0) {
        std::memcpy(at, t.raw() + other * size, size);
        return;
      }
  if (t.dtype() == DType::F8) *reinterpret_cast<double*>(at) += 1.0;
  else if (t.dtype() == DType::F4) *reinterpret_cast<float*>(at) += 1.0f;
  else at[0] ^= 1;
}

// A fault a floating-point stage's contract must catch (its outputs are not compared with a trace):
// 2^100 added to the middle element, beyond the double-double CRT's 2^-48 P for these moduli (P < 2^140).
void plant_contract_fault(Tensor& t) {
  REQUIRE(t.dtype() == DType::F8);
  t.as<double>()[t.elements() / 2] += 0x1p100;
}

}  // namespace

TEST_CASE("verify-trace: every scheme's own trace verifies at every stage", "[trace]") {
  const test::TempDir dir("verify-own");
  test::CaseCount stages("stages of own traces verified and matched bit for bit");
  for (const Config& c : configs()) {
    INFO(c.label);
    write_trace(c, dir / c.label, nullptr);
    int code = -1;
    const nlohmann::json j = verify_trace(dir / c.label, code);
    CHECK(code == 0);
    const Scheme s = scheme_of(c);
    REQUIRE(j["stages"].size() == s.stages.size());
    for (size_t i = 0; i < s.stages.size(); ++i) {
      const nlohmann::json& st = j["stages"][i];
      INFO(st.dump());
      CHECK(st["present"] == true);
      CHECK(st["compared"] == (s.stages[i]->kind() == StageKind::Function));
      CHECK(st["identical"] == true);
      // a stage without a contract (the scale shifts) is not checked: verified is null, not false
      CHECK(st["verified"] == (s.stages[i]->has_contract() ? nlohmann::json(true) : nlohmann::json(nullptr)));
      ++stages;
    }
  }
  stages.report(100);
}

TEST_CASE("verify-trace: tracing does not change the arithmetic (whole arrays or one batch at a time)", "[trace]") {
  const test::TempDir dir("verify-same");
  test::CaseCount cases("schemes run traced and untraced");
  for (const Config& c : configs()) {
    INFO(c.label);
    const SchemeResult traced = write_trace(c, dir / c.label, nullptr);
    const SchemeResult plain = run_scheme(scheme_of(c), inputs_of(c), {.verify = Verify::Full});
    REQUIRE(traced.c.size() == kM * kN);
    for (size_t v = 0; v < traced.c.size(); ++v) REQUIRE(std::bit_cast<uint64_t>(traced.c.data[v]) == std::bit_cast<uint64_t>(plain.c.data[v]));
    for (size_t v = 0; v < traced.c_imag.size(); ++v)
      REQUIRE(std::bit_cast<uint64_t>(traced.c_imag.data[v]) == std::bit_cast<uint64_t>(plain.c_imag.data[v]));
    REQUIRE(traced.stages.size() == plain.stages.size());
    for (size_t i = 0; i < plain.stages.size(); ++i) CHECK(traced.stages[i].violations == plain.stages[i].violations);
    CHECK(plain.exact == traced.exact);
    ++cases;
  }
  cases.report(configs().size());
}

TEST_CASE("verify-trace: a fault planted in one stage is found at that stage and the later stages still verify", "[trace]") {
  const test::TempDir dir("verify-fault");
  test::CaseCount cases("planted faults found at their stage");
  for (const Config& c : configs()) {
    const Scheme s = scheme_of(c);
    for (size_t i = 0; i < s.stages.size(); ++i) {
      const Stage& st = *s.stages[i];
      if (st.kind() == StageKind::Choice) continue;  // the scaling test below changes those
      const bool rounding = st.kind() == StageKind::Rounding;  // not compared: its contract must catch it
      for (const ArraySpec& spec : st.outputs()) {
        INFO(c.label << ": " << st.name() << "." << spec.name);
        const std::string name = std::string(st.name()), array = spec.name;
        test::ChangingSubject faulty(name, [&](const Stage& changed, Arrays& out) {
          Tensor& t = out.get(changed.ref(array));
          rounding ? plant_contract_fault(t) : plant_fault(t);
        });
        const std::string folder = dir / (c.label + "-" + name + "-" + array);
        write_trace(c, folder, &faulty);
        int code = -1;
        const nlohmann::json j = verify_trace(folder, code);
        CHECK(code == 1);
        const nlohmann::json& found = j["stages"][i];
        INFO(found.dump());
        if (rounding) {
          CHECK(found["compared"] == false);
          CHECK(found["violations"].get<size_t>() >= 1);
        } else {
          CHECK(found["identical"] == false);
          CHECK(found["differing_elements"].get<size_t>() >= 1);
        }
        // A wrong bound legitimately changes the scaling and can break truncate's CRT condition; a
        // smaller exponent of cuBLAS's scale (a function, not a choice) the slices' range.
        const bool rescales = name == "bound" || (name == "scale" && st.kind() == StageKind::Function);
        const size_t last = rescales ? i : j["stages"].size();
        for (size_t later = 0; later < last; ++later) {
          if (later == i) continue;
          INFO(j["stages"][later].dump());
          CHECK(j["stages"][later]["identical"] == true);
          CHECK(j["stages"][later]["violations"] == 0);
        }
        ++cases;
      }
    }
  }
  cases.report(100);
}

TEST_CASE("runner: the dd CRT is compared bit for bit only with a subject that follows ozref's rounding order", "[trace]") {
  const Config c{"ozaki2-int8 dd", "ozaki2-int8", with([](SchemeOptions& o) { o.crt = "dd"; })};
  test::CaseCount cases("subjects with a dd CRT rounded otherwise");
  for (bool follows : {true, false}) {
    INFO("follows ozref's rounding order: " << follows);
    // One element's lo moved by one unit in the last place: another valid order of the dd sums.
    test::ChangingSubject rounded_otherwise(
        "crt", [](const Stage& s, Arrays& out) { double& lo = out.get(s.ref("lo")).as<double>()[3]; lo = std::nextafter(lo, HUGE_VAL); }, follows);
    const SchemeResult r = run_scheme(scheme_of(c), inputs_of(c), {.verify = Verify::Full, .subject = &rounded_otherwise});
    const auto crt = std::find_if(r.stages.begin(), r.stages.end(), [](const StageReport& s) { return s.name == "crt"; });
    REQUIRE(crt != r.stages.end());
    CHECK(crt->comparison.compared == follows);
    CHECK(crt->comparison.differing == (follows ? 1u : 0u));
    CHECK(crt->violations == 0);
    for (const StageReport& s : r.stages) CHECK(s.violations == 0);
    ++cases;
  }
  cases.report(2);
}

TEST_CASE("runner: a computing subject's output that breaks its contract is not passed on, the later stages take the CPU's", "[trace]") {
  const Config c{"int8-on-fp4", "int8-on-fp4", {}, "integers:127"};
  // 5 is no digit of S and has no E2M1 encoding as a half: the CPU's gemm could not take it.
  test::ChangingSubject faulty("limbs", [](const Stage& s, Arrays& out) { out.get(s.ref("a")).as<int8_t>()[7] = 5; }, true, true);
  const SchemeResult r = run_scheme(scheme_of(c), inputs_of(c), {.verify = Verify::Full, .subject = &faulty});
  REQUIRE(r.stages.size() == 3);
  CHECK(r.stages[0].name == "limbs");
  CHECK(r.stages[0].violations >= 1);
  CHECK(r.stages[0].comparison.differing == 1);
  for (size_t i = 1; i < r.stages.size(); ++i) {
    INFO(r.stages[i].name);
    CHECK(r.stages[i].violations == 0);
    CHECK(r.stages[i].comparison.differing == 0);
  }
}

TEST_CASE("verify-trace: a different valid scaling verifies, one that breaks the exactness condition is caught", "[trace]") {
  const test::TempDir dir("verify-scale");
  test::CaseCount cases("scalings of a trace");
  size_t chosen = 0;
  for (const Config& c : configs()) {
    INFO(c.label);
    // int8-on-fp4 does not scale; cuBLAS's scale is its own function of the inputs, not a choice (a
    // changed one is a planted fault, found at its stage above).
    const Scheme s = scheme_of(c);
    const Stage* scale = s.find("scale");
    if (!scale || scale->kind() != StageKind::Choice) continue;
    ++chosen;
    for (int change : {-2, 60}) {
      test::ChangingSubject scaled("scale", [&](const Stage& s, Arrays& out) {
        for (const char* array : {"row_shift", "col_shift"}) {
          Tensor& t = out.get(s.ref(array));
          for (size_t v = 0; v < t.elements(); ++v) t.as<int32_t>()[v] += change;
        }
      });
      const std::string folder = dir / (c.label + std::to_string(change));
      write_trace(c, folder, &scaled);
      int code = -1;
      const nlohmann::json j = verify_trace(folder, code);
      INFO(j.dump());
      if (change < 0) {  // smaller integers: the bound holds, every stage matches
        CHECK(code == 0);
      } else {  // too large: truncate or round (Ozaki-II) or slices (Ozaki-I) must say so
        CHECK(code == 1);
        bool caught = false;
        for (const auto& st : j["stages"])
          caught = caught || (st["violations"].get<size_t>() > 0 &&
                              (st["name"] == "truncate" || st["name"] == "round" || st["name"] == "slices" || st["name"] == "limbs"));
        CHECK(caught);
      }
      ++cases;
    }
  }
  cases.report(2 * chosen);
  CHECK(chosen == configs().size() - 3);
}

TEST_CASE("verify-trace: partial traces: missing stages are computed by the CPU and reported as not present", "[trace]") {
  const test::TempDir dir("verify-partial");
  test::CaseCount cases("partial traces");
  for (const Config& c : configs()) {
    INFO(c.label);
    const std::string folder = dir / c.label;
    write_trace(c, folder, nullptr);
    // Keep the inputs and every other stage.
    test::edit_manifest(folder, [](nlohmann::json& m) {
      nlohmann::json kept = nlohmann::json::array();
      for (size_t i = 0; i < m["stages"].size(); ++i)
        if (i == 0 || i % 2 == 1) kept.push_back(m["stages"][i]);
      m["stages"] = kept;
    });
    int code = -1;
    const nlohmann::json j = verify_trace(folder, code);
    CHECK(code == 0);
    size_t absent = 0;
    for (const auto& st : j["stages"]) absent += st["present"] == false;
    CHECK(absent > 0);
    ++cases;
  }
  cases.report(configs().size());
}

TEST_CASE("verify-trace: a GEMM fault leaves a reproducer that mma-check replays instruction by instruction", "[trace]") {
  const test::TempDir dir("verify-repro");
  // int8 mma.sync, fp8, ozaki1-int8, cublas-fixedpoint (its GEMMs the sm_90 model's)
  for (const Config& c : {configs()[0], configs()[5], configs()[9], configs()[16]}) {
    INFO(c.label);
    const bool cublas = c.scheme == "cublas-fixedpoint@13.1";
    test::ChangingSubject faulty("gemm", [&](const Stage& s, Arrays& out) { plant_fault(out.get(s.ref(cublas ? "s" : "c"))); });
    write_trace(c, dir / c.label, &faulty);
    int code = -1;
    const nlohmann::json j = verify_trace(dir / c.label, code);
    const nlohmann::json* gemm = nullptr;
    for (const auto& st : j["stages"])
      if (st["name"] == "gemm") gemm = &st;
    REQUIRE(gemm);
    REQUIRE(gemm->contains("reproducer"));
    std::ostringstream out;
    cli::MmaCheckArgs args;
    args.arch = cublas ? "sm_90" : c.options.arch;
    args.gemm = (*gemm)["reproducer"].get<std::string>();
    args.json = true;
    CHECK(cli::run_mma_check(args, out) == 1);  // the subject's value is not the model's
    const nlohmann::json replay = nlohmann::json::parse(out.str());
    CHECK(replay["model"] == replay["cpu"]);
    CHECK(replay["subject"] != replay["model"]);
    // K = 40 padded to two k32 instructions; cublas: the middle element of s is K-block 1's
    // anti-diagonal 3, four blocks of 16 digits, two k32 instructions.
    CHECK(replay["steps"].size() == 2);
  }
}

TEST_CASE("verify-trace: malformed traces are refused naming the file and the field", "[trace]") {
  const test::TempDir dir("verify-bad");
  const Config c = configs()[0];
  const std::string folder = dir / "t";
  auto refused = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& message) {
    write_trace(c, folder, nullptr);
    test::edit_manifest(folder, edit);
    INFO(message);
    int code = -1;
    CHECK_THROWS_WITH(verify_trace(folder, code), Catch::Contains(message));
  };
  refused([](nlohmann::json& m) { m["stages"][1]["name"] = "bogus"; }, "stage \"bogus\" is not a stage of ozaki2-int8");
  refused([](nlohmann::json& m) { m["stages"][2]["arrays"][0]["file"] = "../outside.npy"; }, "must name a .npy file inside the trace folder");
  refused([](nlohmann::json& m) { m["stages"][3]["arrays"][0]["dtype"] = "f4"; }, "the scheme's is f8");  // truncate.a
  refused([](nlohmann::json& m) { m["stages"][3]["arrays"].erase(1); }, "lists no array \"b\"");
  refused([](nlohmann::json& m) { m["stages"].erase(0); }, "the trace has no \"input\" stage");
  refused([](nlohmann::json& m) { m["options"]["modulii"] = 3; }, "unknown option \"modulii\"");
  refused([](nlohmann::json& m) { m["options"]["moduli"] = "sixteen"; }, "option \"moduli\" must be a positive integer");
  refused([](nlohmann::json& m) { m["resolved"]["moduli"][0] = 255; }, "\"resolved\".moduli is");
  refused([](nlohmann::json& m) { m["m"] = -3; }, "field \"m\" must be an integer");
  refused([](nlohmann::json& m) { m["stages"] = 7; }, "field \"stages\" must be a list");
  refused([](nlohmann::json& m) { m.erase("scheme"); }, "field \"scheme\" missing");
  refused([](nlohmann::json& m) { m["stages"][3]["arrays"][0]["fnv1a64"] = "0000000000000000"; }, "its FNV-1a hash differs from the manifest's");
}

// A subject whose reduce reads the residues itself (as the GPU's fused wgmma twin does): the runner
// keeps them until reduce because the subject names them, and releases them otherwise.
class ResidueReadingSubject final : public Subject {
 public:
  explicit ResidueReadingSubject(bool names_them) : names_them_(names_them) {}
  std::string name() const override { return "residue-reading reduce"; }
  bool provides(const Stage& s) const override { return s.name() == "reduce"; }
  bool computes_from_inputs() const override { return true; }
  void compute(const Stage& s, const Arrays& in, Arrays& out) override {
    saw_residues = in.has({"residues", "a"}) && in.has({"residues", "b"});
    for (size_t t = 0; t < s.batches(); ++t) s.compute(in, out, t);
  }
  std::vector<ArrayRef> extra_inputs(const Stage& s) const override {
    if (!names_them_ || s.name() != "reduce") return {};
    return {{"residues", "a"}, {"residues", "b"}};
  }
  bool saw_residues = false;

 private:
  bool names_them_;
};

TEST_CASE("runner: a subject's extra inputs are kept until the stage that reads them", "[trace]") {
  const Config c{"ozaki2-int8", "ozaki2-int8", {}};
  for (bool names_them : {true, false}) {
    ResidueReadingSubject subject(names_them);
    const SchemeResult r = run_scheme(scheme_of(c), inputs_of(c), {.verify = Verify::Full, .subject = &subject});
    CHECK(subject.saw_residues == names_them);
    for (const StageReport& s : r.stages) CHECK(s.comparison.differing == 0);
  }
}
