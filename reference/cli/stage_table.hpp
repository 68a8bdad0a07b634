// How the verbs that run schemes (run, verify-trace, lockstep) report the stages: a readable
// table, or a JSON array; with a subject, each stage's comparison with the CPU too.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

#include "schemes/stage_report.hpp"

namespace ozref::cli {

nlohmann::json stages_json(const schemes::SchemeResult& r, bool with_subject);
void print_stages(std::ostream& out, const schemes::SchemeResult& r, bool with_subject);
// Exit status of a run: 0 when every checked stage verified (and, with a subject, every compared
// stage is identical), else 1.
int stages_exit_code(const schemes::SchemeResult& r);

}  // namespace ozref::cli
