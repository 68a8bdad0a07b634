// api::exact (include/ozref/exact.hpp): the operands as `ozref exact` checks them, the exact GEMM.
#include "ozref/exact.hpp"

#include "api/public_types.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref::api {
namespace {
template <typename T>
std::vector<T> as_vector(const Buffer<T>& b) {
  return std::vector<T>(b.begin(), b.end());
}
}  // namespace

ExactProduct exact(const ArrayRef& a, const ArrayRef& b, int threads) {
  require_threads(threads);
  const Operands ops = operands_of(a, b);
  const ozref::ExactProduct e = exact_gemm(ops.a, ops.b, {.threads = threads});
  return {.m = e.rows, .n = e.cols, .k = e.depth, .fp64 = {e.rows, e.cols, as_vector(e.nearest)},
          .fp32 = {e.rows, e.cols, as_vector(e.nearest_fp32)}, .residual = {e.rows, e.cols, as_vector(e.residual)}};
}

}  // namespace ozref::api
