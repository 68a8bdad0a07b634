#include "fuzz/session.hpp"

#include <sstream>

#include "fuzz/reproducer.hpp"

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
  words.insert(words.end(), {"--property", properties, "--metric", set.metric == Metric::Maxnorm ? "maxnorm" : "elementwise", "--timeout",
                             number(subject.timeout_seconds)});
  if (set.has(Property::Accuracy)) words.insert(words.end(), {"--at-least", number(set.at_least)});
  return words;
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
