// The exec: subject: an external command run on each case without a shell (docs/fuzz.md, "the
// command protocol"): PROGRAM [WORDS...] A.npy B.npy C.npy, in a work folder of its own.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "fuzz/subject.hpp"

namespace ozref::fuzz {

// CMD split at runs of spaces and tabs; InputError when it holds no word.
std::vector<std::string> split_command(const std::string& cmd);

// InputError for an empty command or a work folder that cannot be made.
std::unique_ptr<Subject> make_exec_subject(const std::string& cmd, double timeout_seconds);

}  // namespace ozref::fuzz
