#include "api/report_json.hpp"

#include <cmath>

namespace ozref {
namespace {
nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json part_json(const char* part) { return part ? nlohmann::json(part) : nlohmann::json(nullptr); }

nlohmann::json worst_json(const WorstElement& w) {
  if (!w.present) return nullptr;
  return {{"row", w.row},         {"col", w.col},       {"part", part_json(w.part)}, {"c", w.c},
          {"rounded", w.rounded}, {"error_log2", w.error_log2}, {"ulps", finite_or_null(w.ulps)},
          {"correct_bits", finite_or_null(w.correct_bits)}};
}

nlohmann::json special_json(const SpecialMismatch& s) {
  if (s.kind == SpecialMismatch::Kind::None) return nullptr;
  // Either may be a NaN or an infinity, which JSON numbers cannot hold: those as the strings
  // Python's json module reads as floats ("NaN", "Infinity", "-Infinity").
  auto text = [](double v) {
    if (std::isfinite(v)) return nlohmann::json(v);
    return nlohmann::json(std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
  };
  return {{"kind", special_mismatch_name(s.kind)}, {"row", s.row}, {"col", s.col}, {"part", part_json(s.part)}, {"c", text(s.c)}, {"rounded", text(s.rounded)}};
}
}  // namespace

nlohmann::json metrics_json(const AccuracyMetrics& m) {
  return {
      {"elements", m.elements},
      {"bit_identical", m.bit_identical},
      {"compared_elements", m.compared_elements},
      {"erring_elements", m.erring_elements},
      {"correct_bits_maxnorm", finite_or_null(m.correct_bits_maxnorm)},
      {"correct_bits_elementwise_min", finite_or_null(m.correct_bits_elementwise_min)},
      {"max_ulp_error", finite_or_null(m.max_ulp_error)},
      {"zero_reference_elements", m.zero_reference_elements},
      {"zero_reference_mismatches", m.zero_reference_mismatches},
      {"nan_mismatches", m.nan_mismatches},
      {"infinity_mismatches", m.infinity_mismatches},
      {"worst_maxnorm", worst_json(m.worst_maxnorm)},
      {"worst_elementwise", worst_json(m.worst_elementwise)},
      {"first_special_mismatch", special_json(m.first_special_mismatch)},
  };
}

nlohmann::json stages_json(const schemes::SchemeResult& r, bool with_subject) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : r.stages) {
    nlohmann::json j = {{"name", s.name},           {"checked", s.checked},           {"verified", s.checked ? nlohmann::json(s.verified()) : nlohmann::json(nullptr)},
                        {"violations", s.violations}, {"first_violation", s.first_violation}, {"notes", s.notes},
                        {"seconds", s.seconds},     {"verify_seconds", s.verify_seconds}};
    if (with_subject) {
      const schemes::StageComparison& c = s.comparison;
      j["present"] = c.present;
      j["compared"] = c.compared;
      j["identical"] = c.identical();
      j["differing_elements"] = c.differing;
      j["first_difference"] = c.first_difference;
      j["unwritten_elements"] = c.unwritten;
      j["first_unwritten"] = c.first_unwritten;
      if (!c.reproducer.empty()) j["reproducer"] = c.reproducer;
      if (!c.reproducer_error.empty()) j["reproducer_error"] = c.reproducer_error;
    }
    stages.push_back(j);
  }
  return stages;
}

nlohmann::json check_json(const CheckOutcome& r) {
  nlohmann::json j = metrics_json(r.metrics);
  j["m"] = r.m;
  j["n"] = r.n;
  j["k"] = r.k;
  j["c_precision"] = r.c_precision;
  j["complex"] = r.complex;
  if (r.gate) j["gate"] = gate_json(*r.gate, judge(r.metrics, *r.gate));
  return j;
}

std::string arch_of(const schemes::Scheme& s, const std::string& given_arch) {
  return s.resolved.contains("arch") ? s.resolved["arch"].get<std::string>() : given_arch;
}

nlohmann::json run_json(const schemes::Scheme& s, const std::string& given_arch, const std::string& source, const schemes::SchemeResult& r,
                        const char* verify) {
  return {{"scheme", s.name}, {"arch", arch_of(s, given_arch)}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"options", s.options},
          {"resolved", s.resolved}, {"verify", verify}, {"source", source}, {"low_precision_gemms", r.low_precision_gemms},
          {"stages", stages_json(r, false)}, {"exact", r.exact}, {"exactness_conditions", r.exactness_conditions},
          {"accuracy", metrics_json(r.accuracy)}, {"pipeline_seconds", r.pipeline_seconds}, {"seconds", r.seconds}};
}

nlohmann::json verify_trace_json(const std::string& dir, const schemes::Scheme& s, const schemes::SchemeResult& r) {
  return {{"trace", dir}, {"scheme", s.name}, {"options", s.options}, {"m", s.m}, {"n", s.n}, {"k", s.k},
          {"stages", stages_json(r, true)}, {"exact", r.exact}, {"identical", r.identical}, {"accuracy", metrics_json(r.accuracy)}};
}

}  // namespace ozref
