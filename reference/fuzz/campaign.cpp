#include "fuzz/campaign.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "api/operands.hpp"
#include "common/error.hpp"

namespace ozref::fuzz {
namespace {

namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Whether `v` is the same failure as `original`: the same property, and for no-crash the same kind.
bool same_failure(const Verdict& v, const Verdict& original) {
  return v.failed == original.failed && (original.failed != Property::NoCrash || v.failure_kind == original.failure_kind);
}

Finding shrink_finding(Subject& subject, const CampaignOptions& o, FuzzCase c, Verdict v, std::ostream& progress) {
  progress << "ozref fuzz: " << c.origin() << " failed " << property_name(*v.failed) << ": " << v.detail << "; generator "
           << c.generator << ", " << c.m() << "x" << c.n() << "x" << c.k() << "\n";
  const StillFails still_fails = [&](const Matrix<double>& a, const Matrix<double>& b) -> std::optional<Verdict> {
    Verdict again = check_case(o.properties, subject, a, b, v.failed);
    if (!same_failure(again, v)) return std::nullopt;
    return again;
  };
  // A replayed case was shrunk when it was found: it is reported as it is.
  Shrunk s = c.replayed() ? Shrunk{.a = c.a, .b = c.b, .verdict = v} : shrink(still_fails, c.a, c.b, v, o.shrink);
  // Once more on the shrunk case, so that its C (and an exec subject's log) are that case's.
  if (std::optional<Verdict> last = still_fails(s.a, s.b)) s.verdict = std::move(*last);
  progress << "ozref fuzz: shrunk to " << s.a.rows << "x" << s.b.cols << "x" << s.a.cols << " in " << s.steps.size() << " steps (" << s.attempts
           << " tried, " << s.seconds << " s" << (s.budget_ran_out ? ", stopped by the shrinking budget" : "") << ")\n";
  return {.original = std::move(c), .original_verdict = std::move(v), .shrunk = std::move(s)};
}

class ProgressLine {
 public:
  ProgressLine(std::ostream& out, double every, uint64_t seed) : out_(out), every_(every), seed_(seed), start_(Clock::now()), last_(start_) {}
  void tick(const CampaignResult& r) {
    if (std::chrono::duration<double>(Clock::now() - last_).count() < every_) return;
    last_ = Clock::now();
    const double t = since(start_);
    out_ << "ozref fuzz: " << r.cases << " cases (seed " << seed_ << "), " << r.refused << " refused, " << t << " s, " << static_cast<uint64_t>(r.cases / t)
         << " cases/s\n";
  }

 private:
  std::ostream& out_;
  double every_;
  uint64_t seed_;
  Clock::time_point start_, last_;
};

}  // namespace

std::vector<std::string> replay_folders(const std::string& dir) {
  if (fs::exists(fs::path(dir) / "A.npy")) return {dir};
  std::vector<std::string> folders;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error))
    if (entry.is_directory() && fs::exists(entry.path() / "A.npy")) folders.push_back(entry.path().string());
  if (error) throw InputError("--replay " + dir + ": " + error.message());
  if (folders.empty()) throw InputError("--replay " + dir + ": holds no A.npy and no folder with one");
  std::sort(folders.begin(), folders.end());
  return folders;
}

CampaignResult run_campaign(Subject& subject, const CampaignOptions& o, std::ostream& progress) {
  const Clock::time_point start = Clock::now();
  CampaignResult r;
  ProgressLine line(progress, o.progress_every_seconds, o.seed);
  auto check = [&](FuzzCase c) {
    const Verdict v = check_case(o.properties, subject, c.a, c.b);
    ++r.cases;
    r.refused += v.refused;
    if (v.failed) r.finding = shrink_finding(subject, o, std::move(c), v, progress);
    else line.tick(r);
    return r.finding.has_value();
  };
  for (const std::string& folder : o.replay) {
    Operands ops = load_operands(folder + "/A.npy", folder + "/B.npy");
    if (check({.a = std::move(ops.a), .b = std::move(ops.b), .generator = "replay " + folder})) break;
  }
  for (uint64_t i = o.first_case; !r.finding && since(start) < o.seconds && (o.max_cases == 0 || i - o.first_case < o.max_cases); ++i)
    check(generate_case(o.seed, i, o.generators, o.shapes));
  r.seconds = since(start);
  return r;
}

}  // namespace ozref::fuzz
