#include "api/check_product.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/phase_clock.hpp"
#include "common/thread_scope.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref {

void require_c_shape(const std::vector<size_t>& shape, size_t m, size_t n, const std::string& c_name) {
  if (shape.size() != 2 || shape[0] != m || shape[1] != n) throw InputError(c_name + ": C must be " + shape_text(m, n) + " to match A and B");
}

void require_c_matching(const std::vector<size_t>& shape, DType dtype, size_t m, size_t n, const std::string& c_name) {
  require_c_shape(shape, m, n, c_name);
  if (dtype != DType::F8 && dtype != DType::F4)
    throw InputError(c_name + ": expected dtype f8 or f4, got " + std::string(dtype_name(dtype)));
}

const char* c_precision_of(DType dtype) { return dtype == DType::F8 ? "fp64" : "fp32"; }

MetricSums measure_c(const NpyArray& c, const ExactProduct& e, const std::string& c_name, int threads, PartPlace place) {
  const PhaseTimer timer(Phase::Measure);
  const ThreadScope scope(threads);  // measure_sums runs on OpenMP's threads
  if (c.dtype == DType::F8) return measure_sums(matrix_from_npy(c, c_name).data, e, place);
  std::vector<float> cf(c.elements());
  // std::copy, not memcpy: an empty C's data() may be null, which memcpy must not be given
  std::copy(c.data.begin(), c.data.end(), reinterpret_cast<uint8_t*>(cf.data()));
  return measure_sums(cf, e, place);
}

CheckOutcome check_against(const ExactProduct& e, const NpyArray& c, const std::string& c_name, int threads) {
  require_c_matching(c.shape, c.dtype, e.rows, e.cols, c_name);
  return {.metrics = finish_metrics(measure_c(c, e, c_name, threads)), .m = e.rows, .n = e.cols, .k = e.depth, .c_precision = c_precision_of(c.dtype), .gate = std::nullopt};
}

}  // namespace ozref
