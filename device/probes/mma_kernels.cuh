// One warp (one warpgroup for wgmma) runs one instruction on one tile: A (M x K, row-major, the
// instruction's element bytes), B (N x K: column n along k), C and D (M x N, 32-bit patterns).
// Fragment layouts: PTX ISA, "Matrix fragments for mma.m16n8k32" / "mma.m16n8k16" / wgmma D.
#pragma once
#include <cstdint>

namespace probe {

enum Op : int {
  kS8S8, kS8U8, kU8S8, kU8U8, kS8S8Sat, kS8U8Sat, kU8S8Sat, kU8U8Sat,  // m16n8k32 integer
  kE4M3, kE5M2,                                                          // m16n8k32 fp8
  kF16, kBF16,                                                           // m16n8k16
  kWgmmaE4M3, kWgmmaE5M2,                                                // m64n8k32
  kOpCount
};

struct OpInfo {
  const char* ptx;
  int m, n, k, element_bytes;
  bool integer;
};

inline const OpInfo& op_info(int op) {
  static const OpInfo table[kOpCount] = {
      {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", 16, 8, 32, 1, true},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, 1, false},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 16, 8, 32, 1, false},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, 2, false},
      {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, 2, false},
      {"wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3", 64, 8, 32, 1, false},
      {"wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e5m2", 64, 8, 32, 1, false},
  };
  return table[op];
}

// Launches `tiles` tiles of op `op`; a, b, c, d are device pointers laid out per tile.
void launch(int op, int tiles, const uint8_t* a, const uint8_t* b, const uint32_t* c, uint32_t* d);

}  // namespace probe
