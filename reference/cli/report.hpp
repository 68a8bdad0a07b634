// How the verbs print accuracy: a readable table, or JSON fields (infinities as "inf"/"-inf",
// since JSON has no infinity).
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "exact/metrics.hpp"

namespace ozref::cli {

nlohmann::json json_number(double v);
nlohmann::json metrics_json(const AccuracyMetrics& m);
void print_metrics(std::ostream& out, const std::string& title, const AccuracyMetrics& m);

}  // namespace ozref::cli
