#include "api/check_product.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref {

CheckOutcome check_product(const Operands& ops, const NpyArray& c, const std::string& c_name, int threads) {
  if (c.shape.size() != 2 || c.shape[0] != ops.a.rows || c.shape[1] != ops.b.cols)
    throw InputError(c_name + ": C must be " + std::to_string(ops.a.rows) + "x" + std::to_string(ops.b.cols) + " to match A and B");
  if (c.dtype != DType::F8 && c.dtype != DType::F4)
    throw InputError(c_name + ": expected dtype f8 or f4, got " + std::string(dtype_name(c.dtype)));
  const ExactProduct e = exact_gemm(ops.a, ops.b, {.threads = threads});
  CheckOutcome r{.m = e.rows, .n = e.cols, .k = e.depth};
  if (c.dtype == DType::F8) {
    r.metrics = measure(matrix_from_npy(c, c_name).data, e);
  } else {
    std::vector<float> cf(c.elements());
    // std::copy, not memcpy: an empty C's data() may be null, which memcpy must not be given
    std::copy(c.data.begin(), c.data.end(), reinterpret_cast<uint8_t*>(cf.data()));
    r.metrics = measure(cf, e);
    r.c_precision = "fp32";
  }
  return r;
}

}  // namespace ozref
