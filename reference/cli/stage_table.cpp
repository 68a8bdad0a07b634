#include "cli/stage_table.hpp"

#include <cstdio>

namespace ozref::cli {

nlohmann::json stages_json(const schemes::SchemeResult& r, bool with_subject) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : r.stages) {
    nlohmann::json j = {{"name", s.name},           {"checked", s.checked},           {"verified", s.verified()},
                        {"violations", s.violations}, {"first_violation", s.first_violation}, {"notes", s.notes},
                        {"seconds", s.seconds},     {"verify_seconds", s.verify_seconds}};
    if (with_subject) {
      const schemes::StageComparison& c = s.comparison;
      j["present"] = c.present;
      j["compared"] = c.compared;
      j["identical"] = c.identical();
      j["differing_elements"] = c.differing;
      j["first_difference"] = c.first_difference;
      if (!c.reproducer.empty()) j["reproducer"] = c.reproducer;
    }
    stages.push_back(j);
  }
  return stages;
}

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
    if (!s.comparison.reproducer.empty()) out << "      reproducer: " << s.comparison.reproducer << "\n";
    for (const std::string& note : s.notes) out << "      " << note << "\n";
  }
}

int stages_exit_code(const schemes::SchemeResult& r) {
  for (const auto& s : r.stages)
    if ((s.checked && !s.verified()) || !s.comparison.identical()) return 1;
  return 0;
}

}  // namespace ozref::cli
