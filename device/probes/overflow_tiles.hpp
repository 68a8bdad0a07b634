// Probe tiles for overflow inside the fused sum of bf16 mma.sync m16n8k16 (one HMMA on sm_90):
// products and partial sums beyond FP32's range, their cancellation, the signs of the
// infinities, infinities against overflowed products, and zero products beside huge operands.
// The readings they separate and what each predicts: docs/models.md, "HMMA overflow".
#pragma once
#include "common/rng.hpp"
#include "probe_tiles.hpp"

namespace probe {

// Appends the overflow tiles (16 x 8 outputs, K = 16, bf16) to `t`, tagged "overflow:<class>".
void overflow_tiles(Tiles& t, ozref::Rng& r);

}  // namespace probe
