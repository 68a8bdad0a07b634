// One `ozref fuzz` (or api::fuzz) session: the campaign on a subject, and on a finding its
// reproducer folder; the verb and the library both run here.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "fuzz/campaign.hpp"
#include "fuzz/subjects.hpp"
#include "ozref/fuzz.hpp"

namespace ozref::fuzz {

struct Session {
  SubjectSpec subject;            // what --subject and the scheme options named (for the replay command)
  CampaignOptions campaign;
  std::string out = {};           // the reproducer folder; empty: none is written
  std::string ozref = {};         // the executable a replay command runs; empty: no replay command (a
                                  // subject the command cannot run, as a library caller's function)
};

struct SessionResult {
  CampaignResult campaign;
  nlohmann::json report;  // the finding's report (report.json), or the summary: cases, refused, seed
};

// The session `options` describe for the subject `name` with a scheme's `scheme_options` (the
// reproducer folder prepared); InputError for bad options, as `ozref fuzz` gives it.
Session session_of(const std::string& name, const api::FuzzOptions& options, const schemes::SchemeOptions& scheme_options);

// InputError where the reproducer folder cannot be written.
SessionResult run_session(const Session& session, Subject& subject, std::ostream& progress);

// The subject's and the properties' words of ozref fuzz, as a replay command needs them.
std::vector<std::string> check_words(const SubjectSpec& subject, const PropertySet& properties);

}  // namespace ozref::fuzz
