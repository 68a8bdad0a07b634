// The options shared by the verbs that run a scheme (run, lockstep): the scheme and its options,
// the operands (files or generated), the verification level, and what they resolve to.
#pragma once
#include <CLI/CLI.hpp>

#include "api/verify_level.hpp"
#include "cli/scheme_inputs.hpp"
#include "cli/verbs.hpp"
#include "schemes/registry.hpp"

namespace ozref::cli {

// --arch and every declared scheme option (include/ozref/scheme_options.hpp), into `options`.
void add_declared_scheme_options(CLI::App* verb, api::SchemeOptions& options);
// The scheme, its options, the shape and --json (what ozref schema takes).
void add_scheme_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args);
// add_scheme_options and the operands, the verification level and the threads.
void add_run_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args);
schemes::SchemeOptions scheme_options_of(const RunArgs& args);
// InputError for --a without --b, or --m/--n/--k with --a/--b.
SchemeInputs inputs_of(const RunArgs& args);

}  // namespace ozref::cli
