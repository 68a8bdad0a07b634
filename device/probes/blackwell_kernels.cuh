// Blackwell's block-scaled FP4 MMAs (kind::mxf4nvf4, K = 64), one tile per CTA, operands as
// mxf4_cases.hpp lays them out per tile: A m rows and B n columns of 32 bytes (packed e2m1, lower
// k in the lower nibble), scale_A and scale_B four bytes a row (byte j scales K block j), C and D
// m x n 32-bit patterns, row-major.
// - sm_100a: tcgen05.mma.cta_group::1 M = N = 128, A and B in shared memory, C/D and the scales
//   in tensor memory.
// - sm_120a: mma.sync.aligned.m16n8k64, one warp.
// A kernel built for the other target leaves D as it was (the caller's canary shows it).
#pragma once
#include <cstdint>

namespace probe {

// Launches Mxf4OpId `op` on `tiles` tiles (device pointers).
void launch_mxf4(int op, int tiles, const uint8_t* a, const uint8_t* b, const uint8_t* scale_a, const uint8_t* scale_b,
                 const uint32_t* c, uint32_t* d);

}  // namespace probe
