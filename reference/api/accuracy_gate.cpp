#include "api/accuracy_gate.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/error.hpp"

namespace ozref {
namespace {

std::string number(double v, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v + 0.0);  // + 0.0: a figure of -0 reads 0
  return buf;
}

// The shortest text that reads back as v (as Python's repr).
std::string value(double v) {
  char buf[32];
  return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

std::string bits_text(double bits) {
  if (std::isinf(bits)) return bits > 0 ? "every bit correct (no error)" : "no correct bits";
  return number(bits, "%.2f") + " correct bits";
}

// Where C is worst for the gate's figure: the first special-value mismatch, else the element that sets it.
std::string worst_place(const AccuracyMetrics& m, GateMetric metric) {
  const SpecialMismatch& s = m.first_special_mismatch;
  if (s.kind != SpecialMismatch::Kind::None)
    return "first at " + element_place(s.row, s.col, s.part) + " = " + value(s.c) + " where the exact product rounds to " + value(s.rounded) + " (" +
           special_mismatch_name(s.kind) + "; " + std::to_string(m.nan_mismatches) + " NaN, " + std::to_string(m.infinity_mismatches) +
           " infinity and " + std::to_string(m.zero_reference_mismatches) + " zero-reference mismatches in all)";
  const WorstElement& w = metric == GateMetric::Maxnorm ? m.worst_maxnorm : m.worst_elementwise;
  if (!w.present) return "";
  return "worst element " + element_place(w.row, w.col, w.part) + " = " + value(w.c) + " where the exact product rounds to " + value(w.rounded) +
         ": |C - E| = 2^" + number(w.error_log2, "%.2f") + " (" + number(w.ulps, "%.3g") + " ulps, " + number(w.correct_bits, "%.2f") +
         " correct bits there)";
}

}  // namespace

GateMetric gate_metric_named(const std::string& name, const std::string& where) {
  if (name == "maxnorm") return GateMetric::Maxnorm;
  if (name == "elementwise") return GateMetric::Elementwise;
  throw InputError(where + ": expected maxnorm or elementwise, got '" + name + "'");
}

const char* gate_metric_name(GateMetric metric) { return metric == GateMetric::Maxnorm ? "maxnorm" : "elementwise"; }

double gated_bits(const AccuracyMetrics& m, GateMetric metric) {
  const double inf = std::numeric_limits<double>::infinity();
  if (m.nan_mismatches || m.infinity_mismatches) return -inf;
  if (metric == GateMetric::Elementwise && m.zero_reference_mismatches) return -inf;
  const double figure = metric == GateMetric::Maxnorm ? m.correct_bits_maxnorm : m.correct_bits_elementwise_min;
  return std::isnan(figure) ? inf : figure;  // NaN: no element the figure covers, so none errs
}

GateVerdict judge(const AccuracyMetrics& m, const AccuracyGate& gate) {
  GateVerdict v;
  v.bits = gated_bits(m, gate.metric);
  v.passed = v.bits >= gate.at_least;
  const std::string asked = number(gate.at_least, "%g");
  v.message = std::string(v.passed ? "passed: " : "failed: ") + bits_text(v.bits) + " (" + gate_metric_name(gate.metric) + ")";
  if (v.passed) {
    v.message += ", at least the " + asked + " asked for";
    return v;
  }
  v.message += std::isinf(v.bits) ? "" : ", " + number(gate.at_least - v.bits, "%.2f") + " fewer than";
  v.message += std::isinf(v.bits) ? " where " + asked + " were asked for" : " the " + asked + " asked for";
  const std::string where = worst_place(m, gate.metric);
  if (!where.empty()) v.message += "; " + where;
  return v;
}

nlohmann::json gate_json(const AccuracyGate& gate, const GateVerdict& verdict) {
  const bool finite = std::isfinite(verdict.bits);
  return {{"metric", gate_metric_name(gate.metric)},
          {"at_least", gate.at_least},
          {"bits", finite ? nlohmann::json(verdict.bits) : nlohmann::json(nullptr)},
          {"bits_text", finite ? number(verdict.bits, "%.2f") : verdict.bits > 0 ? "exact" : "none"},
          {"passed", verdict.passed},
          {"message", verdict.message}};
}

}  // namespace ozref
