// How the verbs that run schemes (run, verify-trace, lockstep) report the stages: a readable
// table, or a JSON array (api/report_json.hpp); with a subject, each stage's comparison with the
// CPU too.
#pragma once
#include <ostream>

#include "api/report_json.hpp"
#include "api/stage_status.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::cli {

void print_stages(std::ostream& out, const schemes::SchemeResult& r, bool with_subject);

}  // namespace ozref::cli
