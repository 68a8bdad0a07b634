// The reproducer folder of a finding (docs/fuzz.md): the shrunk A, B and the subject's C,
// report.json (the original and the shrunk case, the steps, the replay command), replay.sh, and
// original/ with the unshrunk case.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/campaign.hpp"

namespace ozref::fuzz {

struct ReproducerContext {
  std::string ozref = {};                    // the executable the replay command runs; empty: none
  std::string subject = {};                   // the subject's description
  std::vector<std::string> check_words = {};   // ozref fuzz's words that pick the subject and properties
  uint64_t run_seed = 0;
  std::string subject_log = {};                // a log the subject wrote for the failing run (exec), or empty
};

// The report as report.json holds it; `folder` is where the reproducer is (for the replay command,
// null without an executable).
nlohmann::json finding_report(const Finding& f, const ReproducerContext& context, const std::string& folder);

// Writes the folder (created when absent; InputError when it cannot be); replay.sh only with an executable.
void write_reproducer(const std::string& folder, const Finding& f, const ReproducerContext& context);

// `words` as one line of POSIX shell, each word single-quoted.
std::string shell_quoted(const std::vector<std::string>& words);

}  // namespace ozref::fuzz
