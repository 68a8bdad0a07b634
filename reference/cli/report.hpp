// How the verbs print accuracy: a readable table, or JSON fields. A JSON key never changes type:
// the error figures are numbers, or null where the figure is not a finite number (no element
// compared, no error, an all-zero reference; docs/verbs/check.md lists each case), and the counts
// compared_elements and erring_elements tell these cases apart.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "exact/metrics.hpp"

namespace ozref::cli {

nlohmann::json metrics_json(const AccuracyMetrics& m);
void print_metrics(std::ostream& out, const std::string& title, const AccuracyMetrics& m);

}  // namespace ozref::cli
