// The subjects by name, as `ozref fuzz --subject` takes them (docs/fuzz.md): a scheme of the
// registry, `exact`, `exec:CMD`, `dlopen:LIB:SYMBOL[:rowmajor|colmajor]`.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "fuzz/subject.hpp"
#include "schemes/registry.hpp"

namespace ozref::fuzz {

struct SubjectSpec {
  std::string name;                       // as --subject gives it
  schemes::SchemeOptions options = {};    // a scheme's options
  double timeout_seconds = 10;            // exec and dlopen
  int threads = 1;                        // in-process subjects
};

// The options given (all but an "ideal" arch) as ozref fuzz's words: {"--mode", "fast", ...}.
std::vector<std::string> option_words(const schemes::SchemeOptions& options);

// InputError for an unknown scheme, options it refuses, options given to a subject that is not a
// scheme, a malformed exec: or dlopen: spelling, a library or symbol that cannot be loaded.
std::unique_ptr<Subject> make_subject(const SubjectSpec& spec);

}  // namespace ozref::fuzz
