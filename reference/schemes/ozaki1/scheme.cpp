#include "schemes/ozaki1/scheme.hpp"

#include "common/error.hpp"
#include "common/named_choice.hpp"
#include "schemes/ozaki1/stages.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/common/input_checks.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref::schemes {
namespace {

using namespace ozaki1;

// k: the depth of the real product the slices multiply (doubled for a complex run).
void require_options(const Ozaki1Options& o, const std::string& name, size_t k) {
  const size_t p = ozaki1_slice_count(o), p_max = o.variant == Ozaki1Variant::Fp4 ? 16 : 9;
  if (p < 1 || p > p_max) throw InputError(name + ": --slices must be 1.." + std::to_string(p_max) + ", got " + std::to_string(p));
  if (o.variant == Ozaki1Variant::Fp4 && o.accumulation == Accumulation::Fused)
    throw InputError("ozaki1-fp4: --accumulate fused is the INT32 accumulation of the INT8 scheme (use exact or fp64)");
  if (o.variant == Ozaki1Variant::Int8Cublas && o.accumulation == Accumulation::Fused)
    throw InputError("ozaki1-int8 --slicing cublas: --accumulate fused would put s8 and u8 slices in one GEMM (use exact or fp64)");
  if (o.variant == Ozaki1Variant::Int8Cublas && k > 33025)
    throw InputError(name + " --slicing cublas: K = " + std::to_string(k) +
                     " exceeds 33025, where K products of two unsigned 8-bit slices (255^2 each) still fit INT32");
  if (o.variant == Ozaki1Variant::Int8 && k >= (size_t{1} << 29))
    throw InputError(name + ": K = " + std::to_string(k) + " leaves no slice width (K < 2^29)");
  if (o.variant == Ozaki1Variant::Fp4 && k > 262144)
    throw InputError(name + ": K = " + std::to_string(k) + " exceeds 262144, the bound for exact FP4 GEMMs of greedy digits (exact_k.greedy_fp4_digits.*)");
}

nlohmann::json options_of(const Ozaki1Options& o, size_t parts) {
  const char* accumulate[] = {"exact", "fp64", "fused"};
  nlohmann::json j = {{"arch", o.arch}, {"accumulate", accumulate[static_cast<int>(o.accumulation)]}};
  if (o.slices) j["slices"] = o.slices;
  if (o.variant != Ozaki1Variant::Fp4) j["slicing"] = o.variant == Ozaki1Variant::Int8Cublas ? "cublas" : "ozimmu";
  if (parts == 2) j["complex"] = true;
  return j;
}

}  // namespace

Accumulation parse_accumulation(const std::string& name) {
  return named_choice<Accumulation>(name, "--accumulate",
                                    {{"exact", Accumulation::Exact}, {"fp64", Accumulation::Fp64}, {"fused", Accumulation::Fused}});
}

size_t ozaki1_slice_count(const Ozaki1Options& o) { return o.slices ? o.slices : o.variant == Ozaki1Variant::Fp4 ? 15 : 4; }

Scheme ozaki1_scheme(const Ozaki1Options& o, size_t m, size_t n, size_t k, size_t parts) {
  const std::string name = o.variant == Ozaki1Variant::Fp4 ? "ozaki1-fp4" : "ozaki1-int8";
  require_options(o, name, parts * k);
  const auto setup = std::make_shared<const Setup>(o, parts * m, n, parts * k, parts == 2);
  Scheme s;
  s.name = name;
  s.options = options_of(o, parts);
  s.resolved = {{"slices", setup->p}, {"slice_bits", setup->sl.width()}};
  s.m = m, s.n = n, s.k = k, s.parts = parts;
  if (parts == 2) s.stages.push_back(std::make_unique<Stack>(setup));
  s.stages.push_back(std::make_unique<Scale>(setup));
  s.stages.push_back(std::make_unique<Slices>(setup));
  s.stages.push_back(std::make_unique<Gemm>(setup));
  s.stages.push_back(std::make_unique<Accumulate>(setup));
  s.stages.push_back(std::make_unique<Unscale>(setup));
  s.low_precision_gemms = setup->pairs.size() * (parts == 2 ? 4 : 1);  // a stacked GEMM is four m x k x n products
  s.result = {Unscale::kName, "c"};
  s.exact_by_design = setup->exact;
  s.condition_by_construction = true;  // the slice width and the K bound make every GEMM safe
  s.check_inputs = [name, m, n, k, parts](const Arrays& in) {
    const Tensor &a = in.get({kInputStage, "a"}), &b = in.get({kInputStage, "b"});
    require_finite({a.as<double>(), parts * m, k}, name.c_str(), "A");
    require_finite({b.as<double>(), parts * k, n}, name.c_str(), "B");
  };
  return s;
}

SchemeResult run_ozaki1(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Options& o, TraceWriter* trace) {
  require_product_shapes(a.rows, a.cols, b.rows, b.cols, o.variant == Ozaki1Variant::Fp4 ? "ozaki1-fp4" : "ozaki1-int8");
  const Scheme s = ozaki1_scheme(o, a.rows, b.cols, a.cols, 1);
  return run_scheme(s, input_arrays({a}, {b}), {.verify = o.verify, .threads = o.threads, .trace = trace});
}

SchemeResult run_ozaki1_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki1Options& o, TraceWriter* trace) {
  const std::string name = o.variant == Ozaki1Variant::Fp4 ? "ozaki1-fp4" : "ozaki1-int8";
  if (a_re.rows != a_im.rows || a_re.cols != a_im.cols || b_re.rows != b_im.rows || b_re.cols != b_im.cols)
    throw InputError(name + ": real and imaginary parts differ in shape");
  require_product_shapes(a_re.rows, a_re.cols, b_re.rows, b_re.cols, name);
  const Scheme s = ozaki1_scheme(o, a_re.rows, b_re.cols, a_re.cols, 2);
  return run_scheme(s, input_arrays({a_re, a_im}, {b_re, b_im}), {.verify = o.verify, .threads = o.threads, .trace = trace});
}

}  // namespace ozref::schemes
