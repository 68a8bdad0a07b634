#include "cli/report.hpp"

#include <cmath>
#include <cstdio>

namespace ozref::cli {

nlohmann::json json_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  return v;
}

nlohmann::json metrics_json(const AccuracyMetrics& m) {
  return {
      {"elements", m.elements},
      {"bit_identical", m.bit_identical},
      {"correct_bits_maxnorm", json_number(m.correct_bits_maxnorm)},
      {"correct_bits_elementwise_min", json_number(m.correct_bits_elementwise_min)},
      {"max_ulp_error", json_number(m.max_ulp_error)},
      {"zero_reference_elements", m.zero_reference_elements},
      {"zero_reference_mismatches", m.zero_reference_mismatches},
      {"nan_mismatches", m.nan_mismatches},
      {"infinity_mismatches", m.infinity_mismatches},
  };
}

namespace {
std::string bits_text(double v) {
  if (std::isinf(v)) return v > 0 ? "exact (no error)" : "none (reference is zero)";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}
}  // namespace

void print_metrics(std::ostream& out, const std::string& title, const AccuracyMetrics& m) {
  char ulp[32];
  std::snprintf(ulp, sizeof ulp, "%.3g", m.max_ulp_error);
  out << title << "\n"
      << "  elements                      " << m.elements << "\n"
      << "  bit-identical to round(E)     " << m.bit_identical << "\n"
      << "  correct bits, max norm        " << bits_text(m.correct_bits_maxnorm) << "\n"
      << "  correct bits, element-wise    " << bits_text(m.correct_bits_elementwise_min) << "\n"
      << "  largest error in ulps         " << ulp << "\n"
      << "  E == 0 elements (C wrong)     " << m.zero_reference_elements << " ("
      << m.zero_reference_mismatches << ")\n"
      << "  NaN / Inf mismatches          " << m.nan_mismatches << " / " << m.infinity_mismatches
      << "\n";
}

}  // namespace ozref::cli
