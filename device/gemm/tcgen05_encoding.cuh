// The encodings of ozref's tcgen05 GEMM (tcgen05_gemm.cu), host and device, so that the CPU tests
// hold them against the PTX ISA's tables where no Blackwell GPU is (tests/device/t-tcgen05-encoding.cpp).
// Sections are those of the PTX ISA 9.1 (CUDA 13.1); the facts also hold in CUTLASS's
// cute/arch/mma_sm100_desc.hpp (UMMA::SmemDescriptor, UMMA::InstrDescriptor).
// - Operand tiles in shared memory: K-major, no swizzle (§9.7.16.3.3 "Canonical Layouts",
//   ((8,m),(T,2k)):((1T,SBO),(1,LBO)) with T = 16 one-byte containers): 8-row x 16-byte core
//   matrices of 128 contiguous bytes; the core matrices of one 8-row group follow each other along
//   K (LBO = 128 bytes), the groups follow each other (SBO = 128 x the tile's K chunks).
// - kind::f8f6f4 takes E2M1 from shared memory as 16 elements packed into 8 bytes followed by 8
//   bytes of padding per 16-byte container (§9.7.16.10.4.4, the .b4x16_p64 format of §5.5.1.1.1;
//   CUTLASS sizes these operands as one byte per element and loads them with TMA's 16U4_ALIGN16B),
//   lower K in the lower nibble (as .b4x16 packs them in global memory). ozref's operands hold E2M1
//   in bits 5:2 of a byte (mma.sync's container, reference/mma/execute.cpp); the kernel repacks.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/host_device.hpp"

namespace ozref::device::tcgen05 {

constexpr int kTileRows = 128;   // M of the instruction and rows of A's and B's tiles (N = 128 too)
constexpr int kChunkK = 64;      // K elements (bytes) of one shared-memory stage
constexpr int kInstrK = 32;      // K of kind::f8f6f4 and kind::i8 (§9.7.16.2.1, Table 39)
constexpr uint32_t kLbo = 128;                          // bytes between core matrices along K
constexpr uint32_t kSbo = 128 * (kChunkK / 16);         // bytes between 8-row groups
constexpr uint32_t kTileBytes = kTileRows * kChunkK;    // one operand tile of one stage

// Byte offset of (row, k byte) in a tile: the canonical K-major layout without swizzle.
OZREF_HD constexpr uint32_t tile_offset(uint32_t row, uint32_t k) {
  return (row / 8) * kSbo + (k / 16) * kLbo + (row % 8) * 16 + k % 16;
}

// Byte offset of the first instruction-K slice j (K bytes 32 j ..) of a tile: its descriptor's start.
OZREF_HD constexpr uint32_t instr_offset(int j) { return tile_offset(0, uint32_t(j * kInstrK)); }

// Where element (row, k) of a tile lies: byte offset and bit shift of its code (8-bit: shift 0).
struct ElementPlace {
  uint32_t byte;
  int shift;
};
OZREF_HD constexpr ElementPlace element_place(uint32_t row, uint32_t k, bool fp4) {
  if (!fp4) return {tile_offset(row, k), 0};
  return {tile_offset(row, k / 16 * 16) + (k % 16) / 2, int(k % 2) * 4};
}

// One 16-byte container of 16 E2M1 codes (each in bits 5:2 of in[i]) in .b4x16_p64: two codes per
// byte in bytes 0-7, zeros in 8-15 (the padding is ignored by the MMA; zeros keep it defined).
OZREF_HD inline void pack_e2m1_b4x16_p64(const uint8_t* in, uint8_t* out) {
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(((in[2 * i] >> 2) & 0xF) | ((in[2 * i + 1] >> 2) & 0xF) << 4);
  for (int i = 8; i < 16; ++i) out[i] = 0;
}

// Container `chunk` (row chunk / 4 of the tile, K bytes chunk % 4 x 16 ..) of the tile whose rows
// start at r0 and K at k0 in a (rows x k) byte matrix, into the tile: the matrix's 16 bytes (zeros
// outside it; E2M1 repacked). The kernel's threads each take chunks t, t + 128, ...
struct alignas(16) Container {
  uint64_t lo, hi;
};
OZREF_HD inline void stage_container(const uint8_t* x, size_t rows, size_t k, size_t r0, size_t k0, int chunk, bool fp4, uint8_t* tile) {
  const int r = chunk / (kChunkK / 16), c = chunk % (kChunkK / 16) * 16;
  const size_t row = r0 + size_t(r), col = k0 + size_t(c);
  Container v;
  uint8_t* bytes = reinterpret_cast<uint8_t*>(&v);
  if (row < rows && col + 16 <= k && k % 16 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
    v = *reinterpret_cast<const Container*>(x + row * k + col);
  } else {
    for (int i = 0; i < 16; ++i) bytes[i] = row < rows && col + size_t(i) < k ? x[row * k + col + size_t(i)] : 0;
  }
  Container* dst = reinterpret_cast<Container*>(tile + tile_offset(uint32_t(r), uint32_t(c)));
  if (!fp4) {
    *dst = v;
    return;
  }
  Container packed;
  pack_e2m1_b4x16_p64(bytes, reinterpret_cast<uint8_t*>(&packed));
  *dst = packed;
}

// The shared memory descriptor (§9.7.16.4.1, Table 40), no swizzle: start address, leading and
// stride byte offsets, each (x & 0x3FFFF) >> 4 in bits 0-13, 16-29, 32-45; bits 46-48 the fixed
// 0b001; base offset 0 (bits 49-51), relative LBO (bit 52), swizzle mode 0 (bits 61-63).
OZREF_HD constexpr uint64_t encode14(uint32_t x) { return (x & 0x3FFFF) >> 4; }
OZREF_HD constexpr uint64_t smem_descriptor(uint32_t address) {
  return encode14(address) | encode14(kLbo) << 16 | encode14(kSbo) << 32 | uint64_t{1} << 46;
}

// Operand types of the instruction descriptor (§9.7.16.4.2, Table 42).
enum class Kind { F8F6F4, I8 };
enum class Operand : uint32_t { E4M3 = 0, E5M2 = 1, E2M1 = 5, U8 = 0, S8 = 1 };

// The instruction descriptor for .kind::f8f6f4 (D F32) or .kind::i8 (D S32), dense, A and B of one
// type, not negated, K-major (no transpose), N and M of the tile: dtype bits 4-5 (F32 = 1, S32 = 2),
// saturate bit 3 (i8 only), atype 7-9, btype 10-12, N >> 3 at 17-22, M >> 4 at 24-28.
OZREF_HD constexpr uint32_t instruction_descriptor(Kind kind, Operand type, bool saturate = false, int m = kTileRows,
                                                  int n = kTileRows) {
  const uint32_t dtype = kind == Kind::F8F6F4 ? 1 : 2, t = static_cast<uint32_t>(type);
  return uint32_t(saturate && kind == Kind::I8) << 3 | dtype << 4 | t << 7 | t << 10 | uint32_t(n >> 3) << 17 | uint32_t(m >> 4) << 24;
}

// Tensor memory address (§9.7.16.1.1): lane in bits 31-16, column in 15-0. The accumulator of
// M = 128 with cta_group::1 holds row i in lane i and column j in column base + j (§9.7.16.10.5.4,
// Layout D); warp w of the warpgroup reaches lanes 32 w .. 32 w + 31 (§9.7.16.8.1).
OZREF_HD constexpr uint32_t tmem_address(uint32_t base, uint32_t lane, uint32_t column) { return base + (lane << 16) + column; }

// The instructions of the stage holding K elements k0 .. k0 + 63 of a K-long product: one per 32,
// K padded with zeros to 32 and none past it (the CPU model's chain, reference/mma/gemm.hpp).
OZREF_HD constexpr int instructions_in_chunk(size_t k, size_t k0) {
  const size_t left = k > k0 ? k - k0 : 0, in_chunk = left < size_t(kChunkK) ? left : size_t(kChunkK);
  return int((in_chunk + kInstrK - 1) / kInstrK);
}

}  // namespace ozref::device::tcgen05
