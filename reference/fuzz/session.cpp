#include "fuzz/session.hpp"

#include <chrono>
#include <sstream>

#include "common/error.hpp"
#include "fuzz/reproducer.hpp"
#include "io/atomic_file.hpp"

namespace ozref::fuzz {
namespace {

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

}  // namespace

std::vector<std::string> check_words(const SubjectSpec& subject, const PropertySet& set) {
  std::vector<std::string> words{"--subject", subject.name};
  const std::vector<std::string> options = option_words(subject.options);
  words.insert(words.end(), options.begin(), options.end());
  std::string properties;
  for (Property p : set.checked) properties += (properties.empty() ? "" : ",") + property_name(p);
  words.insert(words.end(), {"--property", properties, "--metric", gate_metric_name(set.metric), "--timeout",
                             number(subject.timeout_seconds)});
  if (set.has(Property::Accuracy)) words.insert(words.end(), {"--at-least", number(set.at_least)});
  if (set.exact_device != "cpu") words.insert(words.end(), {"--exact-device", set.exact_device});
  return words;
}

Session session_of(const std::string& name, const api::FuzzOptions& o, const schemes::SchemeOptions& scheme_options) {
  if (o.max_m < 1 || o.max_n < 1 || o.max_k < 1) throw InputError("max_m, max_n and max_k must be at least 1");
  if (!(o.seconds >= 0) || !(o.timeout > 0) || !(o.shrink_seconds >= 0)) throw InputError("seconds and shrink_seconds must be >= 0, timeout > 0");
  Session s{.subject = {.name = name, .options = scheme_options, .timeout_seconds = o.timeout, .threads = o.threads}, .campaign = {}, .out = o.out};
  CampaignOptions& c = s.campaign;
  c.properties = parse_properties(o.properties, o.at_least, o.metric);
  c.properties.threads = o.threads;
  c.generators = parse_generators(o.generators);
  c.seed = o.seed.value_or(static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007ULL);
  c.seconds = o.seconds, c.max_cases = o.cases, c.first_case = o.first_case;
  c.shapes = {o.max_m, o.max_n, o.max_k};
  c.shrink.seconds = o.shrink_seconds;
  if (!o.replay.empty()) c.replay = replay_folders(o.replay);
  if (!o.out.empty()) prepare_output_folder(o.out, "out");
  return s;
}

SessionResult run_session(const Session& s, Subject& subject, std::ostream& progress) {
  progress << "ozref fuzz: seed " << s.campaign.seed << ", subject " << subject.description() << ", properties " << s.campaign.properties.description()
           << "\n";
  SessionResult r{.campaign = run_campaign(subject, s.campaign, progress), .report = {}};
  const ReproducerContext context{.ozref = s.ozref,
                                  .subject = subject.description(),
                                  .check_words = check_words(s.subject, s.campaign.properties),
                                  .run_seed = s.campaign.seed,
                                  .subject_log = subject.last_log()};
  if (!r.campaign.finding) {
    r.report = {{"subject", context.subject}, {"seed", s.campaign.seed}, {"cases", r.campaign.cases}, {"refused", r.campaign.refused},
                {"seconds", r.campaign.seconds}, {"failed", false}};
    return r;
  }
  r.report = finding_report(*r.campaign.finding, context, s.out.empty() ? "." : s.out);
  r.report["cases"] = r.campaign.cases, r.report["refused"] = r.campaign.refused, r.report["failed"] = true;
  if (!s.out.empty()) write_reproducer(s.out, *r.campaign.finding, context);
  return r;
}

}  // namespace ozref::fuzz
