#include "dist/block_reports.hpp"

#include <algorithm>
#include <string>

namespace ozref::dist {
namespace {

using schemes::StageReport;

// "<label>: W of M elements not exact" (check_lowp_gemm's note) as its label and W; false for
// another note.
bool parse_count_note(const std::string& note, std::string& label, size_t& wrong) {
  const std::string tail = " elements not exact";
  const size_t colon = note.rfind(": ");
  if (colon == std::string::npos || note.size() < tail.size() || note.compare(note.size() - tail.size(), tail.size(), tail) != 0) return false;
  const size_t of = note.find(" of ", colon);
  if (of == std::string::npos) return false;
  label = note.substr(0, colon);
  wrong = std::stoul(note.substr(colon + 2, of - colon - 2));
  return true;
}

void merge_notes(StageReport& into, const StageReport& part) {
  for (size_t i = 0; i < part.notes.size(); ++i) {
    const std::string& note = part.notes[i];
    std::string label;
    size_t wrong = 0;
    bool merged = false;
    if (parse_count_note(note, label, wrong))
      for (std::string& mine : into.notes) {
        std::string my_label;
        size_t my_wrong = 0;
        if (parse_count_note(mine, my_label, my_wrong) && my_label == label) {
          const size_t of = mine.find(" of ", label.size());
          mine = label + ": " + std::to_string(my_wrong + wrong) + mine.substr(of);
          merged = true;
          break;
        }
      }
    if (!merged) into.note(note, part.note_at[i]);
  }
}

// The merged notes in the order one process makes them (each rank's are in that order already).
void order_notes(StageReport& r) {
  std::vector<size_t> order(r.notes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return r.note_at[x] < r.note_at[y]; });
  std::vector<std::string> notes;
  std::vector<schemes::ViolationKey> at;
  for (size_t i : order) notes.push_back(r.notes[i]), at.push_back(r.note_at[i]);
  r.notes = std::move(notes), r.note_at = std::move(at);
}

// A subject's comparison (a distributed verify-trace): the differing elements summed, the first
// difference the least placed one; the reproducer is written afterwards by the rank that holds it.
void merge_comparisons(schemes::StageComparison& into, const std::vector<const StageReport*>& parts) {
  into.differing = 0;
  into.reproducer.clear();
  into.pending.reset();
  const schemes::StageComparison* first = nullptr;
  for (const StageReport* p : parts) {
    const schemes::StageComparison& c = p->comparison;
    into.differing += c.differing;
    if (c.differing && (!first || c.first_at < first->first_at)) first = &c;
  }
  if (first) into.first_difference = first->first_difference, into.first_at = first->first_at;
}

StageReport merge_stage(const std::vector<const StageReport*>& parts) {
  StageReport r = *parts[0];
  r.violations = 0;
  r.notes.clear();
  r.note_at.clear();
  r.first_violation.clear();
  r.first_at = {};
  r.condition_held = true;
  const StageReport* first = nullptr;
  for (const StageReport* p : parts) {
    r.violations += p->violations - (p->condition_held || !p->violations ? 0 : 1);  // the bound's own violation, counted once below
    r.condition_checked = r.condition_checked || p->condition_checked;
    r.condition_held = r.condition_held && p->condition_held;
    r.seconds = std::max(r.seconds, p->seconds);
    r.verify_seconds = std::max(r.verify_seconds, p->verify_seconds);
    if (p->violations && (!first || p->first_at < first->first_at)) first = p;
    merge_notes(r, *p);
  }
  if (!r.condition_held) ++r.violations;
  if (first) r.first_violation = first->first_violation, r.first_at = first->first_at;
  order_notes(r);
  merge_comparisons(r.comparison, parts);
  return r;
}

nlohmann::json keys_json(const std::vector<schemes::ViolationKey>& keys) {
  nlohmann::json all = nlohmann::json::array();
  for (const schemes::ViolationKey& k : keys) all.push_back({k.batch, k.check, k.element});
  return all;
}

nlohmann::json comparison_json(const schemes::StageComparison& c) {
  return {{"present", c.present}, {"compared", c.compared}, {"differing", c.differing}, {"first_difference", c.first_difference},
          {"first_at", {c.first_at.batch, c.first_at.check, c.first_at.element}}, {"reproducer", c.reproducer}};
}

schemes::StageComparison comparison_from_json(const nlohmann::json& x) {
  schemes::StageComparison c;
  c.present = x.at("present").get<bool>();
  c.compared = x.at("compared").get<bool>();
  c.differing = x.at("differing").get<size_t>();
  c.first_difference = x.at("first_difference").get<std::string>();
  c.first_at = {x.at("first_at")[0].get<uint64_t>(), x.at("first_at")[1].get<uint64_t>(), x.at("first_at")[2].get<uint64_t>()};
  c.reproducer = x.at("reproducer").get<std::string>();
  return c;
}

}  // namespace

std::vector<StageReport> merge_block_reports(const std::vector<std::vector<StageReport>>& ranks) {
  std::vector<StageReport> merged;
  for (size_t s = 0; s < ranks.at(0).size(); ++s) {
    std::vector<const StageReport*> parts;
    for (const auto& rank : ranks) parts.push_back(&rank.at(s));
    merged.push_back(merge_stage(parts));
  }
  return merged;
}

nlohmann::json block_reports_json(const std::vector<StageReport>& reports) {
  nlohmann::json all = nlohmann::json::array();
  for (const StageReport& r : reports)
    all.push_back({{"name", r.name}, {"checked", r.checked}, {"has_contract", r.has_contract}, {"violations", r.violations},
                   {"first_violation", r.first_violation}, {"first_at", {r.first_at.batch, r.first_at.check, r.first_at.element}},
                   {"notes", r.notes}, {"note_at", keys_json(r.note_at)}, {"seconds", r.seconds}, {"verify_seconds", r.verify_seconds},
                   {"condition_checked", r.condition_checked}, {"condition_held", r.condition_held}, {"comparison", comparison_json(r.comparison)}});
  return all;
}

std::vector<StageReport> block_reports_from_json(const nlohmann::json& j) {
  std::vector<StageReport> reports;
  for (const nlohmann::json& x : j) {
    StageReport r;
    r.name = x.at("name").get<std::string>();
    r.checked = x.at("checked").get<bool>();
    r.has_contract = x.at("has_contract").get<bool>();
    r.violations = x.at("violations").get<size_t>();
    r.first_violation = x.at("first_violation").get<std::string>();
    r.first_at = {x.at("first_at")[0].get<uint64_t>(), x.at("first_at")[1].get<uint64_t>(), x.at("first_at")[2].get<uint64_t>()};
    r.notes = x.at("notes").get<std::vector<std::string>>();
    for (const nlohmann::json& key : x.at("note_at")) r.note_at.push_back({key[0].get<uint64_t>(), key[1].get<uint64_t>(), key[2].get<uint64_t>()});
    r.seconds = x.at("seconds").get<double>();
    r.verify_seconds = x.at("verify_seconds").get<double>();
    r.condition_checked = x.at("condition_checked").get<bool>();
    r.condition_held = x.at("condition_held").get<bool>();
    r.comparison = comparison_from_json(x.at("comparison"));
    reports.push_back(std::move(r));
  }
  return reports;
}

}  // namespace ozref::dist
