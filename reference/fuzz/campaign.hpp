// A fuzz campaign: past findings replayed first, then generated cases until the time or case
// budget runs out or a property fails; the failing case shrunk. A progress line on `progress`
// every few seconds.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/fuzz_case.hpp"
#include "fuzz/generators.hpp"
#include "fuzz/properties.hpp"
#include "fuzz/shrink.hpp"
#include "fuzz/subject.hpp"

namespace ozref::fuzz {

struct CampaignOptions {
  uint64_t seed = 1;
  double seconds = 60;
  uint64_t max_cases = 0;   // 0: no limit but the time
  uint64_t first_case = 0;  // the index of the first generated case
  std::vector<std::string> generators = generator_names();
  ShapeLimits shapes = {};
  PropertySet properties = {};
  ShrinkLimits shrink = {};
  std::vector<std::string> replay = {}; // case folders (A.npy, B.npy) checked before any generated case
  double progress_every_seconds = 5;
};

struct Finding {
  FuzzCase original;
  Verdict original_verdict;
  Shrunk shrunk;
};

struct CampaignResult {
  uint64_t cases = 0;    // checked, replayed ones included
  uint64_t refused = 0;  // of those, declined by the subject
  double seconds = 0;
  std::optional<Finding> finding;
};

CampaignResult run_campaign(Subject& subject, const CampaignOptions& options, std::ostream& progress);

// The case folders `--replay DIR` names: DIR itself when it holds A.npy, else its sub-folders that
// do (sorted by name). InputError when there is none.
std::vector<std::string> replay_folders(const std::string& dir);

}  // namespace ozref::fuzz
