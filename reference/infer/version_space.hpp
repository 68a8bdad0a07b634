// `infer`'s search (docs/infer.md, "How infer searches"): the candidates are the family's members;
// each step draws a pool of queries, asks the black box the one whose answers split the
// remaining candidates most evenly, and drops every candidate that answers otherwise. A candidate
// is dropped only by an answer it disagrees with, so whatever remains agrees with every answer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "infer/family.hpp"
#include "infer/oracle.hpp"

namespace ozref::infer {

struct SearchOptions {
  uint64_t seed = 1;
  int pool = 32;        // queries drawn per step
  // The search gives up splitting the candidates left after `patience` pools in a row without a
  // splitting query and `split_budget` candidate answers computed in them: with few candidates
  // it draws many queries (2^18 for two), since two datapaths may part on one random query in
  // 10^4 or fewer; with hundreds (members no data of the format tells apart) few pools.
  int patience = 32;
  uint64_t split_budget = uint64_t{1} << 19;
  uint64_t validate = 10000;  // fresh random queries the single survivor is checked on
};

// The answer that first pinned a dimension: from it on, every candidate had that value.
struct Pin {
  std::string dimension, value;
  size_t query = 0;  // 1-based, among the queries asked
  MmaRecord asked;   // with the answer in d
};

struct Inference {
  std::vector<mma::InstructionSpec> remaining;  // agree with every answer
  std::vector<Pin> pins;
  size_t queries = 0;  // asked during the search (validation and shrinking not counted)
  // Several remain: a query two of them answer differently (none when no query drawn split them).
  std::optional<MmaRecord> split;
  // No candidate fits: the smallest input found that none reproduces, with the black box's answer.
  std::optional<MmaRecord> unexplained;
  // Several remain and no query of `patience` pools in a row tells them apart: one behaviour as
  // far as the search can see; the first (in family order) stands for them and is validated.
  bool equivalent = false;
  // Validation queries asked. One that the survivors answer differently drops those it refutes
  // (and joins `asked`); one that none of them reproduces is `unexplained`.
  size_t validated = 0;
  std::vector<MmaRecord> asked;  // the queries that dropped candidates, with the answers in d
  double seconds = 0;
  bool found() const { return !remaining.empty() && !unexplained && (remaining.size() == 1 || equivalent); }
};

// Adaptive: asks `oracle` about `interface`'s op.
Inference search(const mma::InstructionSpec& interface, const Oracle& oracle, const SearchOptions& options);

// Fixed records (not adaptive): the candidates that reproduce every record; `split` is a query
// from a pool that separates two of them, when several remain and one was found.
Inference narrow(const mma::InstructionSpec& interface, const std::vector<MmaRecord>& records, const SearchOptions& options);

// The dimensions on which `candidates` differ, with the values they take ("F: 24, 25").
std::vector<std::string> open_dimensions(const std::vector<mma::InstructionSpec>& candidates);

}  // namespace ozref::infer
