// Variants: where the evidence leaves two readings of one datapath parameter open, the reading
// with the better evidence is the base spec and the other one a variant named
// "<base>+<reading>", so that a user can select either and a probe can tell them apart
// (docs/models.md, "Open questions, their variants and their probes").
#include "mma/arch/arch_list.hpp"

namespace ozref::mma {
namespace {

// Zero groups on Blackwell's mxf4/mxf4nvf4: MMA-Sim lets every group of 16 FP4 products take
// part in the alignment maximum through its scale exponents, even a group whose products sum to
// zero (the base specs follow it); this variant leaves such a group out, as a zero product is
// left out on the H200's HMMA. Unmeasured: device/probes/blackwell_main.cu decides it.
ArchSpec zero_groups_ignored(const ArchSpec& base) {
  ArchSpec v = base;
  v.name = base.name + "+zero-groups-ignored";
  v.variant_of = base.name;
  v.summary = "as " + base.name + ", except that an FP4 group of 16 whose products sum to zero does not raise the alignment exponent";
  for (InstructionSpec& s : v.instructions)
    if (s.exact_group) {
      s.zero_group_aligns = false;
      s.evidence += "; variant: a zero group leaves the alignment exponent alone";
    }
  return v;
}

}  // namespace

std::vector<ArchSpec> make_variants(const std::vector<ArchSpec>& bases) {
  std::vector<ArchSpec> out;
  for (const ArchSpec& b : bases)
    if (b.name == "sm_100" || b.name == "sm_120") out.push_back(zero_groups_ignored(b));
  return out;
}

}  // namespace ozref::mma
