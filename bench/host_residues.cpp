#include "host_residues.hpp"

#include "schemes/common/residue.hpp"

namespace ozref::bench {

std::vector<int16_t> balanced_residues_of(const std::vector<int32_t>& sums, int64_t modulus) {
  std::vector<int16_t> residues(sums.size());
  for (size_t v = 0; v < sums.size(); ++v) residues[v] = static_cast<int16_t>(schemes::balanced_residue(sums[v], modulus));
  return residues;
}

}  // namespace ozref::bench
