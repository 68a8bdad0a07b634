// An option's value that starts with "--" is refused: CLI11 takes the word after an option as its
// value whatever it is, so `--out --json` would write a file named "--json" and drop the flag.
// The message says how to name such a file (./--name). Values that start with one "-" stay
// allowed: negative numbers reach the numeric options' own checks (cli/options.hpp).
#pragma once
#include <CLI/CLI.hpp>

namespace ozref::cli {

// Adds the refusal to every option that takes a value, of `app` and of each of its verbs.
void refuse_option_like_values(CLI::App& app);

}  // namespace ozref::cli
