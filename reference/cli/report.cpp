#include "cli/report.hpp"

#include <cmath>
#include <cstdio>

namespace ozref::cli {
namespace {

std::string fixed(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const char* kNoneCompared = "n/a (no element where C and E are both finite)";

// A correct-bits figure in words where it is not a number (metrics.hpp gives the cases).
std::string bits_text(double v, const char* undefined) {
  if (std::isnan(v)) return undefined;
  if (std::isinf(v)) return v > 0 ? "exact (no error)" : "none (reference is zero)";
  return fixed(v, "%.2f");
}

std::string ulps_text(double v) {
  if (std::isnan(v)) return kNoneCompared;
  if (std::isinf(v)) return "more than the FP64 range";
  return fixed(v, "%.3g");
}

}  // namespace

void print_metrics(std::ostream& out, const std::string& title, const AccuracyMetrics& m) {
  out << title << "\n"
      << "  elements                      " << m.elements << "\n"
      << "  bit-identical to round(E)     " << m.bit_identical << "\n"
      << "  both finite (C != E)          " << m.compared_elements << " (" << m.erring_elements << ")\n"
      << "  correct bits, max norm        " << bits_text(m.correct_bits_maxnorm, kNoneCompared) << "\n"
      << "  correct bits, element-wise    " << bits_text(m.correct_bits_elementwise_min, "n/a (no element with a finite C and a finite nonzero E)") << "\n"
      << "  largest error in ulps         " << ulps_text(m.max_ulp_error) << "\n"
      << "  E == 0 elements (C wrong)     " << m.zero_reference_elements << " ("
      << m.zero_reference_mismatches << ")\n"
      << "  NaN / Inf mismatches          " << m.nan_mismatches << " / " << m.infinity_mismatches
      << "\n";
  const WorstElement& w = m.worst_maxnorm;
  if (w.present)
    out << "  largest error at              " << element_place(w.row, w.col, w.part) << " = " << fixed(w.c, "%.17g") << ", round(E) = "
        << fixed(w.rounded, "%.17g") << ", |C - E| = 2^" << fixed(w.error_log2, "%.2f") << "\n";
  const SpecialMismatch& s = m.first_special_mismatch;
  if (s.kind != SpecialMismatch::Kind::None)
    out << "  first special mismatch at     " << element_place(s.row, s.col, s.part) << " = " << fixed(s.c, "%.17g") << ", round(E) = "
        << fixed(s.rounded, "%.17g") << " (" << special_mismatch_name(s.kind) << ")\n";
}

}  // namespace ozref::cli
