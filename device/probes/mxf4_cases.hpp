// The zero-group probe of Blackwell's block-scaled FP4 MMAs (kind::mxf4nvf4, K = 64: four groups
// of 16 e2m1 products): does a group whose products sum to zero still raise the alignment
// exponent to its scale exponents (MMA-Sim's reading, ozref's sm_100 and sm_120) or not (their
// "+zero-groups-ignored" variants)? Plain C++: the probe program runs these tiles on the GPU, and
// tests/mma/t-blackwell-probe.cpp checks on the CPU that they tell the two readings apart.
#pragma once
#include "common/rng.hpp"
#include "probe_tiles.hpp"

namespace probe {

// One probed instruction: its PTX as ozref's specs name it, the tile one launch computes and how
// many tiles are run, the scale format and the elements per scale.
struct Mxf4Op {
  const char* ptx;
  const char* arch;  // the ozref spec family that models it
  int m, n, tiles;
  bool ue8m0;       // else UE4M3
  int scale_block;  // 16 (scale_vec::4X) or 32 (scale_vec::2X)
};

enum Mxf4OpId { kTcgen05Vec4Ue8m0, kTcgen05Vec4Ue4m3, kMmaSyncVec2Ue8m0, kMmaSyncVec4Ue4m3, kMxf4OpCount };
const Mxf4Op& mxf4_op(int id);  // an element of one table: zero_group_tiles knows its index
constexpr uint64_t kMxf4Seed = 20261201;  // the probe program's default seed

// The tiles of `op` (K = 64 packed e2m1, 32 bytes a row, 64 / scale_block scales a row), each row
// of A one case class (tagged "zero_group:<class>", docs/models.md lists them), from `seed`: op.tiles
// tiles, then one more with every scale 1 (tagged "zero_group:control_unit_scales").
Tiles zero_group_tiles(const Mxf4Op& op, uint64_t seed);

}  // namespace probe
