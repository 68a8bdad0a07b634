#include "schemes/ozaki2/scheme.hpp"

#include "common/error.hpp"
#include "schemes/ozaki2/moduli_list.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/common/input_checks.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref::schemes {
namespace {

using namespace ozaki2;

void require_options(const Ozaki2Options& o, size_t k, size_t parts) {
  if (o.complex_product == ComplexProduct::Gaussian && (o.variant != Ozaki2Variant::Int8 || parts != 2))
    throw InputError(ozaki2_family(o.variant).scheme + ": --complex-product gaussian is a complex ozaki2-int8 product (give --complex; other variants take 3m)");
  const Ozaki2Family& f = ozaki2_family(o.variant, o.complex_product);
  const size_t count = ozaki2_moduli_count(o, k);
  if (!o.moduli_list.empty()) require_moduli_list(o);
  else if (count < 2 || count > f.moduli.size())
    throw InputError(f.scheme + ": --moduli must be 2.." + std::to_string(f.moduli.size()) + ", got " + std::to_string(count));
  if (o.kblock && o.variant != Ozaki2Variant::Int8) throw InputError(f.scheme + " takes no --kblock (K-blocks are ozaki2-int8's)");
  const size_t depth = o.kblock ? std::min(o.kblock, k) : k;  // one GEMM's
  if (depth > ozaki2_max_k(o.variant) && !o.kernel_arrays)
    throw InputError(f.scheme + ": " + (o.kblock ? "--kblock " : "K = ") + std::to_string(depth) + " exceeds the bound " +
                     std::to_string(ozaki2_max_k(o.variant)) +
                     " under which one low-precision GEMM per limb pair stays exact (docs/proofs.md); " +
                     (f.format == LowpFormat::Int8 ? "split K with --kblock, or " : "") +
                     "a kernel's trace may exceed it, and verify-trace then reports the GEMM outputs whose sums do not fit");
  if (parts == 2 && o.variant == Ozaki2Variant::Rare) throw InputError("rare: --complex is not part of fp64-emu's scheme (use ozaki2-int8)");
}

std::vector<std::unique_ptr<Stage>> stages_of(const std::shared_ptr<const Setup>& s) {
  std::vector<std::unique_ptr<Stage>> v;
  if (s->rare) {
    v.push_back(std::make_unique<RareScale>(s));
    v.push_back(std::make_unique<Round>(s));
  } else {
    if (s->o.mode == ScalingMode::Accurate) v.push_back(std::make_unique<Bound>(s));
    v.push_back(std::make_unique<Scale>(s));
    v.push_back(std::make_unique<Truncate>(s));
  }
  v.push_back(std::make_unique<Residues>(s));
  if (!s->int8) v.push_back(std::make_unique<Split>(s));
  v.push_back(std::make_unique<Gemm>(s));
  v.push_back(std::make_unique<Reduce>(s));
  if (s->rare) v.push_back(std::make_unique<Correction>(s));
  if (s->S == 2) v.push_back(std::make_unique<Complex>(s));
  v.push_back(std::make_unique<CrtStage>(s));
  v.push_back(std::make_unique<Unscale>(s));
  return v;
}

nlohmann::json options_of(const Ozaki2Options& o, const Setup& s) {
  nlohmann::json j = {{"arch", o.arch}, {"crt", to_string(o.crt)}};
  if (!o.op.empty()) j["op"] = o.op;
  if (o.moduli) j["moduli"] = o.moduli;
  if (!o.moduli_list.empty()) j["moduli-list"] = o.moduli_list;
  if (o.kblock) j["kblock"] = o.kblock;
  if (!s.rare) j["mode"] = to_string(o.mode);
  if (s.S == 2) j["complex"] = true;
  if (o.complex_product != ComplexProduct::ThreeM) j["complex-product"] = to_string(o.complex_product);
  return j;
}

}  // namespace

size_t ozaki2_max_k(Ozaki2Variant v) { return v == Ozaki2Variant::Fp8 ? 65536 : v == Ozaki2Variant::Fp4 ? 116509 : 131071; }

size_t ozaki2_moduli_count(const Ozaki2Options& o, size_t k) {
  if (!o.moduli_list.empty()) return o.moduli_list.size();
  if (o.moduli) return o.moduli;
  return o.variant == Ozaki2Variant::Rare ? rare::default_moduli(k) : ozaki2_family(o.variant, o.complex_product).default_count;
}

Scheme ozaki2_scheme(const Ozaki2Options& o, size_t m, size_t n, size_t k, size_t parts) {
  require_options(o, k, parts);
  const auto setup = std::make_shared<const Setup>(o, m, n, k, parts);
  Scheme s;
  s.name = setup->family.scheme;
  s.options = options_of(o, *setup);
  s.resolved = {{"moduli", setup->moduli}, {"instruction", setup->lowp.spec().op}};
  if (o.kblock) s.resolved["kblocks"] = setup->kblocks;
  s.constants = setup->kernel_constants();
  s.m = m, s.n = n, s.k = k, s.parts = parts;
  s.stages = stages_of(setup);
  for (const auto& st : s.stages) s.low_precision_gemms += st->gemms();
  s.result = {Unscale::kName, "c"};
  s.exact_by_design = o.crt != CrtVariant::DoubleDouble;  // the double-double reconstruction is approximate
  const std::string scheme = s.name;
  s.check_inputs = [scheme, m, n, k, parts](const Arrays& in) {
    const char* names[2][2] = {{"A", "A (imaginary part)"}, {"B", "B (imaginary part)"}};
    for (size_t p = 0; p < parts; ++p) {
      require_finite(part_of(in.get({kInputStage, "a"}), p, m, k), scheme.c_str(), names[0][p]);
      require_finite(part_of(in.get({kInputStage, "b"}), p, k, n), scheme.c_str(), names[1][p]);
    }
  };
  return s;
}

SchemeResult run_ozaki2(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Options& o, TraceWriter* trace) {
  require_product_shapes(a.rows, a.cols, b.rows, b.cols, ozaki2_family(o.variant).scheme);
  const Scheme s = ozaki2_scheme(o, a.rows, b.cols, a.cols, 1);
  return run_scheme(s, input_arrays({a}, {b}), {.verify = o.verify, .threads = o.threads, .trace = trace});
}

SchemeResult run_ozaki2_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki2Options& o, TraceWriter* trace) {
  const std::string& scheme = ozaki2_family(o.variant).scheme;
  if (a_re.rows != a_im.rows || a_re.cols != a_im.cols || b_re.rows != b_im.rows || b_re.cols != b_im.cols)
    throw InputError(scheme + ": real and imaginary parts differ in shape");
  require_product_shapes(a_re.rows, a_re.cols, b_re.rows, b_re.cols, scheme);
  const Scheme s = ozaki2_scheme(o, a_re.rows, b_re.cols, a_re.cols, 2);
  return run_scheme(s, input_arrays({a_re, a_im}, {b_re, b_im}), {.verify = o.verify, .threads = o.threads, .trace = trace});
}

}  // namespace ozref::schemes
