// api::exact (include/ozref/exact.hpp): the operands as `ozref exact` checks them, the exact GEMM.
#include "ozref/exact.hpp"

#include "api/exact_reports.hpp"
#include "api/public_types.hpp"

namespace ozref::api {
namespace {
// The elements converted to To (the residual: from 80 bits to FP64, one correct rounding).
template <typename To, typename T>
std::vector<To> as_vector(const Buffer<T>& b) {
  return std::vector<To>(b.begin(), b.end());
}
}  // namespace

ProductOperands product_operands_of(const ArrayRef& a, const ArrayRef& b) {
  const NpyArray na = npy_of(a);
  require_operand(na, a.name);
  return product_operands(na, a.name, npy_of(b), b.name);
}

ExactProduct public_exact(const ozref::ExactProduct& e, const ProductOperands& p) {
  return {.m = p.m, .n = p.n, .k = p.k, .complex = p.complex, .fp64 = {e.rows, e.cols, as_vector<double>(e.nearest)},
          .fp32 = {e.rows, e.cols, as_vector<float>(e.nearest_fp32)}, .residual = {e.rows, e.cols, as_vector<double>(e.residual)}};
}

ExactProduct exact(const ArrayRef& a, const ArrayRef& b, int threads) {
  require_threads(threads);
  const ProductOperands p = product_operands_of(a, b);
  return public_exact(exact_gemm(p.real.a, p.real.b, {.threads = threads}), p);
}

}  // namespace ozref::api
