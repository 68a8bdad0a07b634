// A machine-checked statement: each theorem is a small program (one family per file) that decides
// its statement by exhaustive enumeration, exact integer derivation or Z3, and reports a status.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ozref::proofs {

enum class Status { Proved, Refuted, Failed };

struct Result {
  Status status = Status::Failed;
  std::string detail;        // the counterexample of a refutation, or why the tool failed
  nlohmann::json data = nlohmann::json::object();
};

struct Theorem {
  std::string id;
  std::string statement;
  std::string method;  // "exhaustive", "exact derivation", "z3", plus what was enumerated
  bool long_running = false;
  std::function<Result()> check;
};

// Every theorem, quick ones and long ones; each family file contributes a list.
std::vector<Theorem> all_theorems();

std::vector<Theorem> format_theorems();
std::vector<Theorem> moduli_theorems();
std::vector<Theorem> fp4_theorems();
std::vector<Theorem> int32_theorems();
std::vector<Theorem> exact_k_theorems();
std::vector<Theorem> reduction_theorems();
std::vector<Theorem> crt_theorems();
std::vector<Theorem> recombination_theorems();

std::string to_string(Status s);

}  // namespace ozref::proofs
