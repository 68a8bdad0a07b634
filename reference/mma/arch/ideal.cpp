// ideal: every modelled instruction with an exact accumulator: all products and C summed exactly,
// rounded once to FP32 nearest-even (integer MMAs: the exact sum, wrapped or clamped as PTX says).
// The reference for "is the hardware exact here?".
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"
#include "mma/op_names.hpp"

namespace ozref::mma {

ArchSpec make_ideal() {
  ArchSpec a{"ideal", "exact sum of all products and C, one round-to-nearest-even", {}};
  const FusedBlock exact = build::ideal_block();
  const std::string why = "definition: no truncation, one rounding";
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::int8_mma_sync(why));
  add(build::half_mma_sync(exact, 1, why));
  add(build::fp8_mma_sync(exact, one_block(32), false, false, why));
  add(build::fp8_wgmma(exact, why));
  add(build::int8_wgmma(why));
  add(build::f8f6f4(op_name::tcgen05_f8f6f4, exact, why));
  add(build::f8f6f4(op_name::mma_sync_f8f6f4, exact, why));
  add(build::mfma_half(exact, 0, why));
  return a;
}

}  // namespace ozref::mma
