#include "cli/stage_table.hpp"

#include <cstdio>

#include "common/printable_text.hpp"

namespace ozref::cli {

void print_stages(std::ostream& out, const schemes::SchemeResult& r, bool with_subject) {
  out << "  stage        checked  verified  violations  seconds" << (with_subject ? "  subject      bit for bit" : "") << "\n";
  for (const auto& s : r.stages) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-12s %-8s %-9s %10zu  %7.3f", s.name.c_str(), s.checked ? "yes" : "no",
                  !s.checked ? "-" : s.verified() ? "yes" : "NO", s.violations, s.seconds + s.verify_seconds);
    out << line;
    if (with_subject) {
      const schemes::StageComparison& c = s.comparison;
      std::snprintf(line, sizeof line, "  %-11s  %s", c.present ? "present" : "not present",
                    !c.compared ? "-" : c.identical() ? "identical" : "DIFFERS");
      out << line;
    }
    out << "\n";
    if (s.violations) out << "      first violation: " << s.first_violation << "\n";
    if (with_subject && !s.comparison.identical())
      out << "      " << s.comparison.differing << " elements differ; first " << s.comparison.first_difference << "\n";
    if (s.comparison.unwritten)
      out << "      " << s.comparison.unwritten << " never written by the subject; first " << s.comparison.first_unwritten << "\n";
    if (!s.comparison.reproducer.empty()) out << "      reproducer: " << s.comparison.reproducer << "\n";
    if (!s.comparison.reproducer_error.empty())
      out << "      reproducer not written: " << printable_text(s.comparison.reproducer_error) << "\n";
    for (const std::string& note : s.notes) out << "      " << note << "\n";
  }
}

}  // namespace ozref::cli
