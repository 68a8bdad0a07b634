// The JSON reports of the verbs (`--json`) and of the library's results, built in one place so
// that the command and the library give the same bytes. A key never changes type: the error
// figures are numbers, or null where the figure is not a finite number (no element compared, no
// error, an all-zero reference; docs/verbs/check.md lists each case), and the counts
// compared_elements and erring_elements tell these cases apart.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "api/check_product.hpp"
#include "exact/metrics.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/stage_report.hpp"

namespace ozref {

nlohmann::json metrics_json(const AccuracyMetrics& m);
// Each stage's report; with a subject, its comparison with the CPU too.
nlohmann::json stages_json(const schemes::SchemeResult& r, bool with_subject);
nlohmann::json check_json(const CheckOutcome& r);
// A scheme that models one machine names its architecture (gemmul8@2.0.14: sm_90); others run on
// the one given.
std::string arch_of(const schemes::Scheme& s, const std::string& given_arch);
// `ozref run --json`: `arch` from arch_of, `source` where the inputs came from.
nlohmann::json run_json(const schemes::Scheme& s, const std::string& given_arch, const std::string& source, const schemes::SchemeResult& r,
                        const char* verify);
// `ozref verify-trace --json`.
nlohmann::json verify_trace_json(const std::string& dir, const schemes::Scheme& s, const schemes::SchemeResult& r);

}  // namespace ozref
