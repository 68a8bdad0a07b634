#include "theorem.hpp"

namespace ozref::proofs {

std::vector<Theorem> all_theorems() {
  std::vector<Theorem> all;
  for (auto family : {format_theorems, moduli_theorems, fp4_theorems, int32_theorems, exact_k_theorems,
                      reduction_theorems, crt_theorems, recombination_theorems}) {
    auto list = family();
    all.insert(all.end(), list.begin(), list.end());
  }
  return all;
}

std::string to_string(Status s) {
  switch (s) {
    case Status::Proved: return "proved";
    case Status::Refuted: return "refuted";
    case Status::Failed: return "failed";
  }
  return "failed";
}

}  // namespace ozref::proofs
