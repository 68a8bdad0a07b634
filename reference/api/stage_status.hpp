// Whether a scheme run passed, as the exit code of the verbs that run schemes and as the
// library's RunResult::exit_code: 0 when every checked stage verified (and, with a subject, every
// compared stage is identical), else 1.
#pragma once
#include "schemes/stage_report.hpp"

namespace ozref {

int stages_exit_code(const schemes::SchemeResult& r);

}  // namespace ozref
