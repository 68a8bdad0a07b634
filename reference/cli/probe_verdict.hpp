// The verdict of a probe on an architecture's open questions: which spec of its family (the base
// spec and its variants, one per reading, mma/arch/variants.cpp) reproduces every recorded
// record, and which probe program records them for that family. Used by `ozref probe`.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/mma_trace.hpp"

namespace ozref::cli {

struct Verdict {
  std::vector<std::string> family;            // base spec first
  size_t records = 0;
  size_t discriminating = 0;                  // records on which the family's specs predict differently
  std::map<std::string, size_t> reproduced;   // per spec: records it reproduces
  std::vector<std::string> consistent;        // specs that reproduce every record
  std::string use;                            // the one spec to use, when the records settle it
  std::string text;                           // the verdict in one sentence
  nlohmann::json json() const;
};

// Replays every record through each spec of the family of `arch` (a base or a variant).
Verdict settle(const std::string& arch, const std::vector<MmaRecord>& records);

// The probe program that records the open questions of `arch`'s family ("mma_probe" for sm_90,
// "mma_probe_blackwell" for sm_100 and sm_120), built beside ozref in device/.
std::string probe_program(const std::string& arch);

}  // namespace ozref::cli
