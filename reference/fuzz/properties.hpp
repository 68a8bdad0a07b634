// The properties a subject's C is checked for (docs/fuzz.md, "Properties"), against the exact
// product as oracle, and the verdict on one case.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/accuracy_gate.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/metrics.hpp"
#include "fuzz/subject.hpp"

namespace ozref::fuzz {

enum class Property { Accuracy, Exactness, CorrectlyRounded, Determinism, Specials, NoCrash };

std::string property_name(Property p);  // "accuracy", "no-crash", ...

// The exact product a case is measured against, computed elsewhere than exact_gemm (the GPU's).
using ExactOracle = std::function<ExactProduct(const Matrix<double>& a, const Matrix<double>& b)>;

struct PropertySet {
  std::vector<Property> checked;  // in the order they are checked
  double at_least = 0;            // accuracy's floor in bits
  GateMetric metric = GateMetric::Maxnorm;
  int threads = 1;                // the oracle's
  std::string exact_device = "cpu";  // where the oracle runs: "cpu" (exact_gemm) or "gpu" (`oracle`)
  ExactOracle oracle = {};           // set with exact_device "gpu"
  bool has(Property p) const;
  std::string description() const;  // "accuracy(maxnorm >= 40), specials"
};

// The properties a comma-separated list names (empty: the default: accuracy when `at_least` is
// given, specials, no-crash); InputError for an unknown name or accuracy without a floor.
PropertySet parse_properties(const std::string& list, std::optional<double> at_least, const std::string& metric);

// The verdict of the properties on one case.
struct Verdict {
  bool refused = false;          // the subject declined the input: no property applies
  std::optional<Property> failed = {};  // the first property that failed
  std::string failure_kind = {};     // no-crash: the outcome's kind ("crash", "timeout", ...)
  std::string detail = {};       // what failed, in words
  nlohmann::json figures = {};       // the metrics of C against the exact product (when there is a C)
  bool has_c = false;
  Matrix<double> c = {};         // the subject's C, when it gave one
};

// Each property on its own, given the subject's outcome and the exact product (ok outcomes only
// for all but no-crash). Empty when it holds, else what failed.
std::optional<std::string> accuracy_failure(const AccuracyMetrics& metrics, double at_least, GateMetric metric);
std::optional<std::string> exactness_failure(const Matrix<double>& c, const ExactProduct& e);
// C is not round(E) bit for bit at some element (any NaN matches a NaN, either zero an exactly zero E).
std::optional<std::string> correctly_rounded_failure(const Matrix<double>& c, const ExactProduct& e);
std::optional<std::string> specials_failure(const AccuracyMetrics& metrics);
std::optional<std::string> determinism_failure(const Matrix<double>& first, const Matrix<double>& second);

// Runs the subject on A and B (twice with determinism) and checks the properties of `set`; with
// `only`, that property alone (the shrinker's question: does it still fail?).
Verdict check_case(const PropertySet& set, Subject& subject, const Matrix<double>& a, const Matrix<double>& b,
                   std::optional<Property> only = std::nullopt);

}  // namespace ozref::fuzz
