// The options shared by the verbs that run a scheme (run, lockstep): the scheme and its options,
// the operands (files or generated), the verification level, and what they resolve to.
#pragma once
#include <CLI/CLI.hpp>

#include "cli/scheme_inputs.hpp"
#include "cli/verbs.hpp"
#include "schemes/registry.hpp"

namespace ozref::cli {

void add_run_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args);
schemes::SchemeOptions scheme_options_of(const RunArgs& args);
// InputError for --a without --b, or --m/--n/--k with --a/--b.
SchemeInputs inputs_of(const RunArgs& args);
// Full verification up to m * n * k = 2^25, cheap beyond (the default of every verb that verifies).
schemes::Verify default_verify(size_t m, size_t n, size_t k);
// --verify, else the default.
schemes::Verify verify_level_of(const RunArgs& args, size_t m, size_t n, size_t k);
const char* verify_name(schemes::Verify v);

}  // namespace ozref::cli
