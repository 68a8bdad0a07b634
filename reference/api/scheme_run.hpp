// A scheme run by name, as `ozref run` and the library's run() make it: the scheme built for the
// inputs' shape, the verification level resolved, the run traced into a folder when asked.
#pragma once
#include <cstdint>
#include <string>

#include "api/scheme_inputs.hpp"
#include "schemes/registry.hpp"
#include "schemes/stage_report.hpp"

namespace ozref {

struct SchemeRun {
  schemes::Scheme scheme;
  schemes::Verify verify = schemes::Verify::Full;
  std::string source;  // where the inputs came from
  schemes::SchemeResult result{};
};

struct SchemeRunRequest {
  std::string scheme;
  schemes::SchemeOptions options;
  std::string verify;   // a level's name; empty: the default for the shape (api/verify_level.hpp)
  int threads = 0;
  std::string dump = {};  // a trace folder (prepared by the caller beforehand), or empty
  uint64_t seed = 0;    // recorded in the trace's manifest (the generated inputs' seed)
  bool measure_accuracy = true;  // false: result.accuracy is left empty (a caller measuring C itself)
};

// InputError for an unknown scheme, options it refuses, inputs it cannot take.
SchemeRun run_named_scheme(const SchemeRunRequest& request, SchemeInputs inputs);

}  // namespace ozref
