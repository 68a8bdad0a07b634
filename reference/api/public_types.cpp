#include "api/public_types.hpp"

#include "api/stage_status.hpp"
#include "common/error.hpp"
#include "common/thread_limit.hpp"
#include "io/json_text.hpp"

namespace ozref::api {
namespace {

DType npy_dtype(Dtype t) {
  switch (t) {
    case Dtype::f8: return DType::F8;
    case Dtype::f4: return DType::F4;
    case Dtype::i1: return DType::I1;
    case Dtype::u1: return DType::U1;
    case Dtype::i2: return DType::I2;
    case Dtype::u2: return DType::U2;
    case Dtype::i4: return DType::I4;
    case Dtype::u4: return DType::U4;
    case Dtype::i8: return DType::I8;
    case Dtype::u8: return DType::U8;
    case Dtype::c16: return DType::C16;
  }
  throw InputError("unknown dtype code " + std::to_string(static_cast<int>(t)));
}

StageReport public_stage(const schemes::StageReport& s) {
  const schemes::StageComparison& c = s.comparison;
  return {.name = s.name, .checked = s.checked, .verified = s.verified(), .violations = s.violations,
          .first_violation = s.first_violation, .notes = s.notes, .seconds = s.seconds, .verify_seconds = s.verify_seconds,
          .comparison = {.present = c.present, .compared = c.compared, .differing_elements = c.differing,
                         .first_difference = c.first_difference, .reproducer = c.reproducer,
                         .reproducer_error = c.reproducer_error}};
}

Matrix<double> public_matrix(ozref::Matrix<double>& m) { return {m.rows, m.cols, std::move(m.data)}; }

}  // namespace

void require_threads(int threads) {
  if (threads < 0 || threads > kMaxThreads)
    throw InputError("threads: " + std::to_string(threads) + " is not in [0, " + std::to_string(kMaxThreads) + "] (0: every core)");
}

NpyArray npy_of(const ArrayRef& array) {
  NpyArray npy;
  npy.dtype = npy_dtype(array.dtype);
  npy.shape = array.shape;
  size_t bytes = dtype_size(npy.dtype);
  for (size_t d : array.shape)
    if (__builtin_mul_overflow(bytes, d, &bytes)) throw InputError(array.name + ": the shape's element count overflows");
  if (bytes > 0 && array.data == nullptr) throw InputError(array.name + ": no data (a null pointer) for a non-empty array");
  const auto* first = static_cast<const uint8_t*>(array.data);
  npy.data.assign(first, first + bytes);
  return npy;
}

bool is_complex(const ArrayRef& a, const ArrayRef& b) { return a.dtype == Dtype::c16 || b.dtype == Dtype::c16; }

Operands operands_of(const ArrayRef& a, const ArrayRef& b) {
  ozref::Matrix<double> ma = matrix_from_npy(npy_of(a), a.name);
  ozref::Matrix<double> mb = matrix_from_npy(npy_of(b), b.name);
  return checked_operands(std::move(ma), a.name, std::move(mb), b.name);
}

SchemeInputs scheme_inputs_of(const ArrayRef& a, const ArrayRef& b) {
  if (!is_complex(a, b)) return real_scheme_inputs(operands_of(a, b), a.name, b.name);
  const ComplexMatrix ca = complex_from_npy(npy_of(a), a.name);
  return complex_scheme_inputs(ca, a.name, complex_from_npy(npy_of(b), b.name), b.name);
}

schemes::SchemeOptions scheme_options_of(const SchemeOptions& o, bool complex) {
  return schemes::SchemeOptions(o, complex);
}

schemes::SchemeOptions kernel_scheme_options_of(const SchemeOptions& o, bool complex) {
  schemes::SchemeOptions x = scheme_options_of(o, complex);
  x.kernel_arrays = true;
  return x;
}

Metrics public_metrics(const AccuracyMetrics& m) {
  return {m.elements, m.bit_identical, m.compared_elements, m.erring_elements, m.correct_bits_maxnorm, m.correct_bits_elementwise_min,
          m.max_ulp_error, m.zero_reference_elements, m.zero_reference_mismatches, m.nan_mismatches, m.infinity_mismatches};
}

RunResult public_run_result(const schemes::Scheme& s, schemes::SchemeResult& r, const char* verify, const nlohmann::json& json) {
  RunResult out;
  out.scheme = s.name;
  out.m = s.m, out.n = s.n, out.k = s.k;
  out.options_json = json_text(s.options);
  out.resolved_json = json_text(s.resolved);
  out.verify = verify;
  for (const schemes::StageReport& stage : r.stages) out.stages.push_back(public_stage(stage));
  out.low_precision_gemms = r.low_precision_gemms;
  out.exactness_conditions = r.exactness_conditions;
  out.exact = r.exact;
  out.identical = r.identical;
  out.accuracy = public_metrics(r.accuracy);
  out.c = public_matrix(r.c);
  out.c_imag = public_matrix(r.c_imag);
  out.pipeline_seconds = r.pipeline_seconds;
  out.seconds = r.seconds;
  out.json = json_text(json);
  out.exit_code = stages_exit_code(r);
  return out;
}

}  // namespace ozref::api
