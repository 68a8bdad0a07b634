#include "infer/version_space.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "infer/queries.hpp"
#include "mma/execute.hpp"
#include "common/seconds_since.hpp"

namespace ozref::infer {
namespace {

using mma::InstructionSpec;

uint32_t answer(const InstructionSpec& s, const MmaRecord& q) {
  return mma::execute(s, {q.a, q.b, q.c, q.scale_a, q.scale_b});
}

std::vector<uint32_t> answers(const std::vector<InstructionSpec>& candidates, const MmaRecord& q) {
  std::vector<uint32_t> out;
  out.reserve(candidates.size());
  for (const InstructionSpec& s : candidates) out.push_back(answer(s, q));
  return out;
}

// The size of the largest class of candidates that answer alike: the fewest an answer can drop.
size_t largest_class(std::vector<uint32_t> a) {
  std::sort(a.begin(), a.end());
  size_t largest = 0;
  for (size_t i = 0, j = 0; i < a.size(); i = j) {
    while (j < a.size() && a[j] == a[i]) ++j;
    largest = std::max(largest, j - i);
  }
  return largest;
}

struct Choice {
  MmaRecord query;
  std::vector<uint32_t> answers;
  size_t largest = SIZE_MAX;
};

// Whether to draw another pool for a split after `pools` in a row without one, in which
// `answers` candidate answers were computed (SearchOptions::patience and split_budget).
bool keep_looking(int pools, uint64_t answers, const SearchOptions& o) { return pools < o.patience || answers < o.split_budget; }

Choice best_query(const InstructionSpec& interface, const std::vector<InstructionSpec>& candidates, Rng& rng, int pool) {
  Choice best;
  for (int i = 0; i < pool; ++i) {
    Choice c{random_query(interface, rng), {}, 0};
    c.answers = answers(candidates, c.query);
    c.largest = largest_class(c.answers);
    if (c.largest < best.largest) best = std::move(c);
  }
  return best;
}

std::vector<InstructionSpec> agreeing(const std::vector<InstructionSpec>& candidates, const std::vector<uint32_t>& predicted, uint32_t d) {
  std::vector<InstructionSpec> out;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (predicted[i] == d) out.push_back(candidates[i]);
  return out;
}

// Adds a pin for each dimension that every candidate now shares and no earlier answer pinned.
void record_pins(const std::vector<InstructionSpec>& candidates, size_t query, const MmaRecord& asked, std::vector<Pin>& pins) {
  std::vector<Dimensions> dims;
  for (const InstructionSpec& s : candidates) dims.push_back(dimensions(s));
  for (size_t i = 0; i < dims.front().size(); ++i) {
    const auto& name = dims.front()[i].first;  // not a structured binding: lambdas capture it (clang 14)
    const auto& value = dims.front()[i].second;
    const bool shared = std::all_of(dims.begin(), dims.end(), [&](const Dimensions& d) { return d[i].second == value; });
    const bool pinned = std::any_of(pins.begin(), pins.end(), [&](const Pin& p) { return p.dimension == name; });
    if (shared && !pinned) pins.push_back({name, value, query, asked});
  }
}

bool nobody_reproduces(const std::vector<InstructionSpec>& candidates, const MmaRecord& q) {
  return std::none_of(candidates.begin(), candidates.end(), [&](const InstructionSpec& s) { return answer(s, q) == q.d; });
}

// Clears elements (both operands' at one k) and then C while no candidate reproduces the black
// box's answer, asking the black box about each smaller input.
MmaRecord shrink(const InstructionSpec& interface, MmaRecord q, const std::vector<InstructionSpec>& candidates, const Oracle& oracle) {
  auto attempt = [&](MmaRecord trial) {
    trial.d = oracle(trial);
    if (nobody_reproduces(candidates, trial)) q = trial;
  };
  for (int k = 0; k < interface.k; ++k) {
    if (interface.kind != mma::Kind::Integer && !mma::element_bits(interface, q.a, k) && !mma::element_bits(interface, q.b, k)) continue;
    MmaRecord trial = q;
    set_element(interface, trial.a, k, 0);
    set_element(interface, trial.b, k, 0);
    if (trial.a != q.a || trial.b != q.b) attempt(trial);
  }
  if (q.c) {
    MmaRecord trial = q;
    trial.c = 0;
    attempt(trial);
  }
  return q;
}

// Fresh random queries for the survivors (one, or several the search could not tell apart): a
// query that splits them drops those it refutes; one that refutes them all is an input outside
// the family.
void validate(const InstructionSpec& interface, const Oracle& oracle, const SearchOptions& options, Inference& out) {
  Rng rng(options.seed ^ 0x5eed5eed5eed5eedULL);  // queries the search never drew
  for (uint64_t i = 0; i < options.validate; ++i) {
    MmaRecord q = random_query(interface, rng);
    q.d = oracle(q);
    ++out.validated;
    std::vector<InstructionSpec> kept = agreeing(out.remaining, answers(out.remaining, q), q.d);
    if (kept.empty()) {
      out.unexplained = shrink(interface, q, out.remaining, oracle);
      out.remaining.clear();
      return;
    }
    if (kept.size() < out.remaining.size()) out.asked.push_back(q);
    out.remaining = std::move(kept);
  }
}

}  // namespace

Inference search(const InstructionSpec& interface, const Oracle& oracle, const SearchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Inference out;
  out.remaining = family(interface);
  record_pins(out.remaining, 0, {}, out.pins);  // dimensions the family itself fixes
  Rng rng(options.seed);
  uint64_t stale_answers = 0;  // candidate answers computed since the last split
  for (int stale = 0; out.remaining.size() > 1 && keep_looking(stale, stale_answers, options);) {
    Choice c = best_query(interface, out.remaining, rng, options.pool);
    if (c.largest == out.remaining.size()) {
      ++stale;
      stale_answers += static_cast<uint64_t>(options.pool) * out.remaining.size();
      continue;
    }
    stale = 0, stale_answers = 0;
    c.query.d = oracle(c.query);
    ++out.queries;
    out.asked.push_back(c.query);
    std::vector<InstructionSpec> kept = agreeing(out.remaining, c.answers, c.query.d);
    if (kept.empty()) {
      out.unexplained = shrink(interface, c.query, out.remaining, oracle);
      out.remaining.clear();
      break;
    }
    out.remaining = std::move(kept);
    record_pins(out.remaining, out.queries, c.query, out.pins);
  }
  out.equivalent = out.remaining.size() > 1 && !out.unexplained;
  if (out.found()) validate(interface, oracle, options, out);
  out.equivalent = out.remaining.size() > 1 && !out.unexplained;
  out.seconds = seconds_since(start);
  return out;
}

Inference narrow(const InstructionSpec& interface, const std::vector<MmaRecord>& records, const SearchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Inference out;
  out.remaining = family(interface);
  record_pins(out.remaining, 0, {}, out.pins);
  for (const MmaRecord& r : records) {
    if (r.op != interface.op) continue;
    ++out.queries;
    std::vector<InstructionSpec> kept = agreeing(out.remaining, answers(out.remaining, r), r.d);
    if (kept.empty()) {
      out.unexplained = r;
      out.remaining.clear();
      break;
    }
    out.remaining = std::move(kept);
    record_pins(out.remaining, out.queries, r, out.pins);
  }
  Rng rng(options.seed);
  uint64_t drawn_answers = 0;
  for (int step = 0; out.remaining.size() > 1 && !out.split && keep_looking(step, drawn_answers, options); ++step) {
    Choice c = best_query(interface, out.remaining, rng, options.pool);
    if (c.largest < out.remaining.size()) out.split = c.query;
    drawn_answers += static_cast<uint64_t>(options.pool) * out.remaining.size();
  }
  out.equivalent = out.remaining.size() > 1 && !out.split;
  out.seconds = seconds_since(start);
  return out;
}

std::vector<std::string> open_dimensions(const std::vector<InstructionSpec>& candidates) {
  std::map<std::string, std::set<std::string>> values;
  std::vector<std::string> order;
  for (const InstructionSpec& s : candidates)
    for (const auto& [name, value] : dimensions(s)) {
      if (!values.count(name)) order.push_back(name);
      values[name].insert(value);
    }
  std::vector<std::string> out;
  for (const std::string& name : order) {
    if (values[name].size() < 2) continue;
    std::string text = name + ":";
    for (const std::string& v : values[name]) text += " " + v;
    out.push_back(text);
  }
  return out;
}

}  // namespace ozref::infer
