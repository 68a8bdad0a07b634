#include "fuzz/properties.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "api/report_json.hpp"
#include "common/error.hpp"
#include "common/thread_scope.hpp"

namespace ozref::fuzz {
namespace {

const std::pair<Property, const char*> kNames[] = {{Property::Accuracy, "accuracy"},
                                                   {Property::Exactness, "exactness"},
                                                   {Property::CorrectlyRounded, "correctly-rounded"},
                                                   {Property::Determinism, "determinism"},
                                                   {Property::Specials, "specials"},
                                                   {Property::NoCrash, "no-crash"}};

std::string figure(double bits) {
  std::ostringstream s;
  s.precision(3);
  s << std::fixed << bits + 0.0;  // -0 printed as 0
  return s.str();
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

}  // namespace

std::string property_name(Property p) {
  for (auto [property, name] : kNames)
    if (property == p) return name;
  return "";
}

bool PropertySet::has(Property p) const { return std::find(checked.begin(), checked.end(), p) != checked.end(); }

std::string PropertySet::description() const {
  std::string text;
  for (Property p : checked) {
    text += (text.empty() ? "" : ", ") + property_name(p);
    if (p == Property::Accuracy) text += std::string("(") + gate_metric_name(metric) + " >= " + figure(at_least) + ")";
  }
  return text;
}

PropertySet parse_properties(const std::string& list, std::optional<double> at_least, const std::string& metric) {
  PropertySet set;
  set.metric = gate_metric_named(metric, "--metric");
  if (at_least && !(*at_least >= 0 && *at_least <= 1100)) throw InputError("--at-least: a number of bits in [0, 1100]");
  set.at_least = at_least.value_or(0);
  std::istringstream words(list.empty() ? std::string(at_least ? "accuracy," : "") + "specials,no-crash" : list);
  for (std::string word; std::getline(words, word, ',');) {
    const auto* found = std::find_if(std::begin(kNames), std::end(kNames), [&](const auto& entry) { return word == entry.second; });
    if (found == std::end(kNames))
      throw InputError("--property: unknown property " + quoted_excerpt(word) + " (known: accuracy, exactness, correctly-rounded, determinism, specials, no-crash)");
    if (!set.has(found->first)) set.checked.push_back(found->first);
  }
  if (set.has(Property::Accuracy) && !at_least) throw InputError("--property accuracy needs --at-least BITS");
  if (set.checked.empty()) throw InputError("--property: no property named");
  return set;
}

std::optional<std::string> accuracy_failure(const AccuracyMetrics& m, double at_least, GateMetric metric) {
  // Correctly rounded everywhere: nothing in FP64 is nearer, whatever the figure says (the
  // subnormal range, where a correctly rounded element can be far from E relatively).
  if (m.bit_identical == m.elements) return std::nullopt;
  const GateVerdict v = judge(m, {.metric = metric, .at_least = at_least});
  if (v.passed) return std::nullopt;
  return v.message;
}

std::optional<std::string> exactness_failure(const Matrix<double>& c, const ExactProduct& e) {
  for (size_t i = 0; i < c.size(); ++i)
    if (!std::isfinite(e.nearest[i]) || e.residual[i] != 0 || !e.residual_exact[i]) return std::nullopt;  // not representable
  for (size_t i = 0; i < c.size(); ++i) {
    const bool zeros = c.data[i] == 0 && e.nearest[i] == 0;
    if (!zeros && !same_bits(c.data[i], e.nearest[i])) {
      std::ostringstream s;
      s.precision(17);
      s << "the product is exactly representable, but C[" << i / c.cols << "," << i % c.cols << "] = " << c.data[i] << ", not " << e.nearest[i];
      return s.str();
    }
  }
  return std::nullopt;
}

std::optional<std::string> correctly_rounded_failure(const Matrix<double>& c, const ExactProduct& e) {
  for (size_t i = 0; i < c.size(); ++i) {
    const double x = c.data[i], r = e.nearest[i];
    const bool exact_zero = r == 0 && e.residual[i] == 0 && e.residual_exact[i];
    if (same_bits(x, r) || (std::isnan(x) && std::isnan(r)) || (exact_zero && x == 0)) continue;
    std::ostringstream s;
    s.precision(17);
    s << "C[" << i / c.cols << "," << i % c.cols << "] = " << x << " where the exact product rounds to " << r;
    return s.str();
  }
  return std::nullopt;
}

std::optional<std::string> specials_failure(const AccuracyMetrics& m) {
  if (m.nan_mismatches == 0 && m.infinity_mismatches == 0) return std::nullopt;
  return std::to_string(m.nan_mismatches) + " NaN and " + std::to_string(m.infinity_mismatches) + " infinity mismatches against the exact product";
}

std::optional<std::string> determinism_failure(const Matrix<double>& first, const Matrix<double>& second) {
  for (size_t i = 0; i < first.size(); ++i)
    if (!same_bits(first.data[i], second.data[i]))
      return "two runs differ at C[" + std::to_string(i / first.cols) + "," + std::to_string(i % first.cols) + "]";
  return std::nullopt;
}

Verdict check_case(const PropertySet& set, Subject& subject, const Matrix<double>& a, const Matrix<double>& b, std::optional<Property> only) {
  auto wanted = [&](Property p) { return set.has(p) && (!only || *only == p); };
  Verdict v;
  SubjectOutcome out = subject.run(a, b);
  if (out.kind == SubjectOutcome::Refused) return {.refused = true, .detail = out.detail};
  if (out.kind != SubjectOutcome::Ok) {
    if (wanted(Property::NoCrash)) v = {.failed = Property::NoCrash, .failure_kind = kind_name(out.kind), .detail = out.detail};
    return v;  // with no C, no other property can be checked
  }
  const ThreadScope threads(set.threads);  // measure()'s parallel region too: small cases lose to thread start-up
  const ExactProduct e = set.oracle ? set.oracle(a, b) : exact_gemm(a, b, {.threads = set.threads});
  const AccuracyMetrics m = measure(out.c.data, e);
  v.figures = metrics_json(m);  // the keys and nulls of `ozref check --json`
  v.has_c = true, v.c = out.c;
  std::optional<std::string> failure;
  for (Property p : set.checked) {
    if (!wanted(p)) continue;
    if (p == Property::Specials) failure = specials_failure(m);
    if (p == Property::Exactness) failure = exactness_failure(out.c, e);
    if (p == Property::CorrectlyRounded) failure = correctly_rounded_failure(out.c, e);
    if (p == Property::Accuracy) failure = accuracy_failure(m, set.at_least, set.metric);
    if (p == Property::Determinism) {
      const SubjectOutcome again = subject.run(a, b);
      failure = again.kind == SubjectOutcome::Ok ? determinism_failure(out.c, again.c)
                                                  : "the second run gave no C (" + kind_name(again.kind) + ": " + again.detail + ")";
    }
    if (failure) {
      v.failed = p, v.detail = *failure;
      return v;
    }
  }
  return v;
}

}  // namespace ozref::fuzz
