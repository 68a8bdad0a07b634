#include "schemes/int8_on_fp4/scheme.hpp"

#include <cmath>

#include "common/error.hpp"
#include "schemes/int8_on_fp4/stages.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/common/input_checks.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref::schemes {
namespace {

constexpr size_t kMaxK = 262144;  // greedy digits are at most 8: exact_k.greedy_fp4_digits.*

void require_int8(const double* x, size_t rows, size_t cols, const char* name) {
  for (size_t v = 0; v < rows * cols; ++v)
    if (!(x[v] >= -128 && x[v] <= 127 && x[v] == std::trunc(x[v])))
      throw InputError(std::string("int8-on-fp4: ") + name + "[" + std::to_string(v / cols) + "," + std::to_string(v % cols) + "] = " +
                       std::to_string(x[v]) + " is not an INT8 value (an integer in [-128, 127]); use --dist integers:R with R <= 127 or INT8-valued .npy files");
}

}  // namespace

Scheme int8_on_fp4_scheme(const Int8OnFp4Options& o, size_t m, size_t n, size_t k) {
  using namespace int8_on_fp4;
  if (k > kMaxK)
    throw InputError("int8-on-fp4: K = " + std::to_string(k) + " exceeds " + std::to_string(kMaxK) +
                     ", the bound under which an FP4 GEMM of greedy base-13 digits stays exact (docs/proofs.md)");
  const auto setup = std::make_shared<const Setup>(o, m, n, k);
  Scheme s;
  s.name = "int8-on-fp4";
  s.options = {{"arch", o.arch}};
  if (!o.op.empty()) s.options["op"] = o.op;
  s.resolved = {{"instruction", setup->lowp.spec().op}};
  s.m = m, s.n = n, s.k = k;
  s.stages.push_back(std::make_unique<Limbs>(setup));
  s.stages.push_back(std::make_unique<Gemm>(setup));
  s.stages.push_back(std::make_unique<Combine>(setup));
  s.low_precision_gemms = kLimbs * kLimbs;
  s.result = {Combine::kName, "c"};
  s.condition_by_construction = true;  // K within the bound
  s.check_inputs = [m, n, k](const Arrays& in) {
    require_int8(in.data<double>({kInputStage, "a"}), m, k, "A");
    require_int8(in.data<double>({kInputStage, "b"}), k, n, "B");
  };
  return s;
}

SchemeResult run_int8_on_fp4(const Matrix<double>& a, const Matrix<double>& b, const Int8OnFp4Options& o, TraceWriter* trace) {
  require_product_shapes(a.rows, a.cols, b.rows, b.cols, "int8-on-fp4");
  const Scheme s = int8_on_fp4_scheme(o, a.rows, b.cols, a.cols);
  return run_scheme(s, input_arrays({a}, {b}), {.verify = o.verify, .threads = o.threads, .trace = trace});
}

}  // namespace ozref::schemes
