// How the verbs print accuracy: a readable table, or JSON fields (api/report_json.hpp).
#pragma once
#include <ostream>
#include <string>

#include "api/report_json.hpp"
#include "exact/metrics.hpp"

namespace ozref::cli {

void print_metrics(std::ostream& out, const std::string& title, const AccuracyMetrics& m);

}  // namespace ozref::cli
