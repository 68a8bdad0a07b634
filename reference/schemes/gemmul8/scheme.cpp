#include "schemes/gemmul8/scheme.hpp"

#include "common/error.hpp"
#include "schemes/gemmul8/stages.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/common/input_checks.hpp"

namespace ozref::schemes {
namespace {

std::vector<std::unique_ptr<Stage>> stages_of(const std::shared_ptr<const gemmul8::Setup>& s) {
  std::vector<std::unique_ptr<Stage>> v;
  if (s->mode == gemmul8::Mode::Accurate) v.push_back(std::make_unique<ozaki2::Bound>(s->base));
  v.push_back(std::make_unique<gemmul8::Scale>(s));
  v.push_back(std::make_unique<ozaki2::Truncate>(s->base));
  v.push_back(std::make_unique<gemmul8::Residues>(s));
  v.push_back(std::make_unique<ozaki2::Gemm>(s->base));
  v.push_back(std::make_unique<ozaki2::Reduce>(s->base));
  v.push_back(std::make_unique<gemmul8::Crt>(s));
  v.push_back(std::make_unique<gemmul8::Unscale>(s));
  return v;
}

}  // namespace

Scheme gemmul8_scheme(gemmul8::Mode mode, size_t moduli, size_t m, size_t n, size_t k) {
  if (moduli < 2 || moduli > 20) throw InputError(std::string(kGemmul8Scheme) + ": --moduli must be 2..20, got " + std::to_string(moduli));
  if (k > ozaki2_max_k(Ozaki2Variant::Int8))
    throw InputError(std::string(kGemmul8Scheme) + ": K = " + std::to_string(k) +
                     " exceeds 131071: GEMMul8's INT8 GEMMs can overflow INT32 beyond it (docs/proofs.md)");
  const auto setup = std::make_shared<const gemmul8::Setup>(mode, moduli, m, n, k);
  Scheme s;
  s.name = kGemmul8Scheme;
  s.options = {{"mode", gemmul8::to_string(mode)}, {"moduli", moduli}};
  s.resolved = {{"arch", "sm_90"}, {"moduli", setup->base->moduli}, {"instruction", setup->base->lowp.spec().op}, {"commit", "71296f9"},
                {"log2", setup->lg2.loaded ? "H200 recording " + setup->lg2.source : "correctly rounded (" + setup->lg2.source + ")"}};
  s.constants = setup->base->kernel_constants();
  s.m = m, s.n = n, s.k = k;
  s.stages = stages_of(setup);
  for (const auto& st : s.stages) s.low_precision_gemms += st->gemms();
  s.result = {gemmul8::Unscale::kName, "c"};
  s.exact_by_design = false;  // a double-double reconstruction
  s.check_inputs = [m, n, k](const Arrays& in) {
    require_finite(ozaki2::part_of(in.get({kInputStage, "a"}), 0, m, k), kGemmul8Scheme, "A");
    require_finite(ozaki2::part_of(in.get({kInputStage, "b"}), 0, k, n), kGemmul8Scheme, "B");
  };
  return s;
}

}  // namespace ozref::schemes
