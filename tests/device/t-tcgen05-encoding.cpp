// The encodings of ozref's tcgen05 GEMM (device/gemm/tcgen05_encoding.cuh), compiled for the host,
// against the PTX ISA 9.1's tables (values worked out by hand from them, not from the code) and
// against independent formulations: the shared memory descriptor (§9.7.16.4.1, Table 40), the
// instruction descriptor (§9.7.16.4.2, Table 42), the tile layout against the canonical K-major
// layout (§9.7.16.3.3) evaluated with the strides decoded from the descriptor, the E2M1 repacking
// against the CPU model's operand decoding (reference/mma/execute.cpp), the K chain's instruction
// count, the tensor-memory addresses of the 32x32b loads, and the kernel's data flow emulated on
// the host against the model's GEMM. No GPU runs here: what the hardware does with these
// encodings is unverified until a B200 runs `device/run_gpu_tests.sh OZREF OUT tcgen05`.
#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "common/rng.hpp"
#include "gemm/tcgen05_encoding.cuh"
#include "mma/execute.hpp"
#include "mma/gemm.hpp"
#include "mma/instruction.hpp"
#include "mma/op_names.hpp"
#include "support.hpp"

using namespace ozref;
namespace tc = ozref::device::tcgen05;

namespace {

uint64_t bits(uint64_t x, int lo, int hi) { return (x >> lo) & ((uint64_t{1} << (hi - lo + 1)) - 1); }

// A CuTe layout of shape (s0, s1) and strides (d0, d1) at a coordinate (colexicographic: the
// first mode varies fastest), the form the PTX ISA gives the canonical layouts in.
uint32_t cute_mode(uint32_t x, uint32_t s0, uint32_t d0, uint32_t d1) { return x % s0 * d0 + x / s0 * d1; }

// Operand element (row, kk) of one instruction as the ISA says the MMA reads it from shared memory
// (`smem`, addressed from 0): the canonical K-major layout at the descriptor's start with its LBO
// and SBO; E2M1 from .b4x16_p64 (byte kk % 16 / 2 of the container, lower nibble for even kk),
// returned in ozref's operand byte (code in bits 5:2).
uint8_t mma_reads(const std::vector<uint8_t>& smem, uint64_t desc, uint32_t row, uint32_t kk, bool fp4) {
  const uint32_t start = uint32_t(bits(desc, 0, 13) << 4), lbo = uint32_t(bits(desc, 16, 29) << 4), sbo = uint32_t(bits(desc, 32, 45) << 4);
  if (!fp4) return smem.at(start + cute_mode(row, 8, 16, sbo) + cute_mode(kk, 16, 1, lbo));
  const uint32_t container = start + cute_mode(row, 8, 16, sbo) + kk / 16 * lbo;
  return uint8_t((smem.at(container + kk % 16 / 2) >> (kk % 2 * 4) & 0xF) << 2);
}

// The kernel's data flow for C = A B on the host: every block of 128 x 128 outputs, every stage's
// containers staged as the threads stage them, the stage's instructions on operands read back
// through their descriptors, each run by the CPU model on the accumulator the previous left.
std::vector<uint32_t> emulated_kernel(const mma::InstructionSpec& s, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b) {
  const bool fp4 = s.packing == mma::Packing::PaddedFp4;
  const uint32_t base_a = 0x1000, base_b = base_a + tc::kTileBytes;
  std::vector<uint32_t> c(m * n, 0xA5A5A5A5u);
  for (size_t bm = 0; bm < m; bm += tc::kTileRows)
    for (size_t bn = 0; bn < n; bn += tc::kTileRows) {
      std::vector<uint32_t> acc(size_t(tc::kTileRows) * tc::kTileRows, 0);  // tcgen05.st of zeros
      for (size_t k0 = 0; k0 < k; k0 += tc::kChunkK) {
        std::vector<uint8_t> smem(base_b + tc::kTileBytes, 0xEE);
        for (int chunk = 0; chunk < tc::kTileRows * (tc::kChunkK / 16); ++chunk) {
          tc::stage_container(a, m, k, bm, k0, chunk, fp4, &smem[base_a]);
          tc::stage_container(b, n, k, bn, k0, chunk, fp4, &smem[base_b]);
        }
        for (int j = 0; j < tc::instructions_in_chunk(k, k0); ++j) {
          const uint64_t da = tc::smem_descriptor(base_a + tc::instr_offset(j)), db = tc::smem_descriptor(base_b + tc::instr_offset(j));
          for (uint32_t r = 0; r < uint32_t(tc::kTileRows); ++r)
            for (uint32_t col = 0; col < uint32_t(tc::kTileRows); ++col) {
              uint8_t ea[tc::kInstrK], eb[tc::kInstrK];
              for (uint32_t kk = 0; kk < uint32_t(tc::kInstrK); ++kk) ea[kk] = mma_reads(smem, da, r, kk, fp4), eb[kk] = mma_reads(smem, db, col, kk, fp4);
              uint32_t& d = acc[r * tc::kTileRows + col];
              d = mma::execute(s, {std::span<const uint8_t>(ea, tc::kInstrK), std::span<const uint8_t>(eb, tc::kInstrK), d, {}, {}});
            }
        }
      }
      for (size_t r = bm; r < std::min(m, bm + tc::kTileRows); ++r)  // tcgen05.ld and the stores
        for (size_t col = bn; col < std::min(n, bn + tc::kTileRows); ++col) c[r * n + col] = acc[(r - bm) * tc::kTileRows + (col - bn)];
    }
  return c;
}

// A and B padded with zeros to the instruction's K, for the model's GEMM.
std::vector<uint8_t> padded(const std::vector<uint8_t>& x, size_t rows, size_t k) {
  const size_t kp = (k + 31) / 32 * 32;
  std::vector<uint8_t> out(rows * kp, 0);
  for (size_t r = 0; r < rows; ++r) std::memcpy(&out[r * kp], &x[r * k], k);
  return out;
}

}  // namespace

TEST_CASE("tcgen05 encoding: the kernel's data flow, read as the ISA says the MMA reads it, is the model's GEMM", "[device]") {
  Rng rng(test::seed() + 23);
  test::CaseCount count("tcgen05 emulated GEMM outputs");
  const std::string ops[] = {mma::op_name::tcgen05_f8f6f4("e2m1"), mma::op_name::tcgen05_f8f6f4("e4m3"), mma::op_name::tcgen05_i8(true, true)};
  struct Shape {
    size_t m, n, k;
  };
  for (const std::string& op : ops) {
    const mma::InstructionSpec& s = mma::instruction(mma::arch("sm_100"), op);
    for (Shape sh : {Shape{1, 1, 1}, Shape{130, 129, 100}, Shape{7, 140, 64}, Shape{129, 3, 33}, Shape{5, 6, 160}}) {
      std::vector<uint8_t> a(sh.m * sh.k), b(sh.n * sh.k);
      for (uint8_t& x : a) x = uint8_t(rng.next());
      for (uint8_t& x : b) x = uint8_t(rng.next());
      if (s.packing == mma::Packing::PaddedFp4)  // valid E2M1 containers (the model reads bits 5:2 only)
        for (auto* v : {&a, &b})
          for (uint8_t& x : *v) x &= 0x3C;
      const std::vector<uint32_t> got = emulated_kernel(s, sh.m, sh.n, sh.k, a.data(), b.data());
      const std::vector<uint8_t> pa = padded(a, sh.m, sh.k), pb = padded(b, sh.n, sh.k);
      const std::vector<uint32_t> want = mma::gemm(s, {sh.m, sh.n, (sh.k + 31) / 32 * 32, pa, pb, {}, {}, {}}, {.threads = 1});
      INFO(op << " " << sh.m << "x" << sh.n << "x" << sh.k);
      REQUIRE(got == want);
      count += got.size();
    }
  }
  count.report(3 * (1 + 130 * 129 + 7 * 140 + 129 * 3 + 5 * 6));
}

TEST_CASE("tcgen05 encoding: shared memory descriptor fields where Table 40 puts them", "[device]") {
  // Start 0x400: field 0x40; LBO 128: field 8 at bit 16; SBO 512: field 32 at bit 32; bit 46 set.
  REQUIRE(tc::smem_descriptor(0x400) == 0x0000402000080040ull);
  test::CaseCount count("tcgen05 shared memory descriptors");
  for (uint32_t address = 0; address < 232448; address += 16) {  // every 16-byte address of 227 KiB
    const uint64_t d = tc::smem_descriptor(address);
    REQUIRE(bits(d, 0, 13) == address >> 4);
    REQUIRE(bits(d, 14, 15) == 0);
    REQUIRE(bits(d, 16, 29) == 128 >> 4);     // leading dimension byte offset
    REQUIRE(bits(d, 30, 31) == 0);
    REQUIRE(bits(d, 32, 45) == 512 >> 4);     // stride dimension byte offset
    REQUIRE(bits(d, 46, 48) == 0b001);        // the fixed constant
    REQUIRE(bits(d, 49, 51) == 0);            // base offset
    REQUIRE(bits(d, 52, 52) == 0);            // relative leading offset
    REQUIRE(bits(d, 53, 60) == 0);
    REQUIRE(bits(d, 61, 63) == 0);            // no swizzle
    ++count;
  }
  count.report(14528);
}

TEST_CASE("tcgen05 encoding: instruction descriptors are Table 42's for every form the kernel issues", "[device]") {
  using tc::Kind, tc::Operand;
  // dtype F32 = 1 (bits 4-5), E2M1 = 5 (7-9, 10-12), N = 128: 16 at 17, M = 128: 8 at 24.
  REQUIRE(tc::instruction_descriptor(Kind::F8F6F4, Operand::E2M1) == 0x08201690u);
  REQUIRE(tc::instruction_descriptor(Kind::F8F6F4, Operand::E4M3) == 0x08200010u);
  REQUIRE(tc::instruction_descriptor(Kind::F8F6F4, Operand::E5M2) == 0x08200490u);
  // kind::i8: dtype S32 = 2, signed 8b = 1, unsigned = 0, saturate bit 3.
  REQUIRE(tc::instruction_descriptor(Kind::I8, Operand::S8) == 0x082004A0u);
  REQUIRE(tc::instruction_descriptor(Kind::I8, Operand::U8) == 0x08200020u);
  REQUIRE(tc::instruction_descriptor(Kind::I8, Operand::S8, true) == 0x082004A8u);
  REQUIRE(tc::instruction_descriptor(Kind::I8, Operand::U8, true) == 0x08200028u);
  REQUIRE(tc::instruction_descriptor(Kind::F8F6F4, Operand::E2M1, true) == 0x08201690u);  // no saturate for floats
  // Other shapes move only the N and M fields: M = 64, N = 8.
  REQUIRE(tc::instruction_descriptor(Kind::F8F6F4, Operand::E2M1, false, 64, 8) == (0x10u | 0x280u | 0x1400u | 1u << 17 | 4u << 24));
  for (uint32_t d : {tc::instruction_descriptor(Kind::F8F6F4, Operand::E2M1), tc::instruction_descriptor(Kind::I8, Operand::S8, true)}) {
    REQUIRE(bits(d, 0, 2) == 0);    // dense, no sparsity selector
    REQUIRE(bits(d, 6, 6) == 0);    // reserved
    REQUIRE(bits(d, 13, 16) == 0);  // no negation, K-major A and B
    REQUIRE(bits(d, 23, 23) == 0);  // reserved
    REQUIRE(bits(d, 29, 31) == 0);  // reserved, no .ws shift
  }
}

TEST_CASE("tcgen05 encoding: the tile layout is the canonical K-major layout the descriptors describe", "[device]") {
  std::set<uint32_t> offsets;
  for (uint32_t row = 0; row < tc::kTileRows; ++row)
    for (uint32_t k = 0; k < uint32_t(tc::kChunkK); ++k) {
      const uint32_t at = tc::tile_offset(row, k);
      REQUIRE(at < tc::kTileBytes);
      offsets.insert(at);
    }
  REQUIRE(offsets.size() == tc::kTileBytes);  // one byte per element, each its own
  // Each instruction's operand: Swizzle<0,4,3> o ((8,m),(T,2k)):((1T,SBO),(1,LBO)), T = 16 bytes,
  // from the descriptor's start address, with the LBO and SBO the descriptor holds.
  test::CaseCount count("tcgen05 layout elements against the canonical layout");
  const uint32_t base = 0x1000;  // a 128-byte-aligned tile
  for (int j = 0; j < tc::kChunkK / tc::kInstrK; ++j) {
    const uint64_t d = tc::smem_descriptor(base + tc::instr_offset(j));
    const uint32_t start = uint32_t(bits(d, 0, 13) << 4), lbo = uint32_t(bits(d, 16, 29) << 4), sbo = uint32_t(bits(d, 32, 45) << 4);
    for (uint32_t row = 0; row < tc::kTileRows; ++row)
      for (uint32_t kk = 0; kk < uint32_t(tc::kInstrK); ++kk) {
        const uint32_t canonical = cute_mode(row, 8, 16, sbo) + cute_mode(kk, 16, 1, lbo);
        REQUIRE(start + canonical == base + tc::tile_offset(row, uint32_t(j * tc::kInstrK) + kk));
        ++count;
      }
  }
  count.report(2 * 128 * 32);
}

TEST_CASE("tcgen05 encoding: E2M1 repacked into .b4x16_p64 holds the codes the model reads", "[device]") {
  const mma::InstructionSpec& spec = mma::instruction(mma::arch("sm_100"), mma::op_name::tcgen05_f8f6f4("e2m1"));
  REQUIRE(spec.packing == mma::Packing::PaddedFp4);
  mma::InstructionSpec packed = spec;
  packed.packing = mma::Packing::PackedFp4;  // the model's nibble order: lower k, lower nibble
  Rng rng(test::seed() + 17);
  test::CaseCount count("tcgen05 e2m1 elements");
  for (int draw = 0; draw < 50 * int(test::level()); ++draw) {
    std::vector<uint8_t> rows(tc::kTileRows * tc::kChunkK), tile(tc::kTileBytes, 0xEE);
    for (uint8_t& b : rows) b = uint8_t(rng.next());  // codes in bits 5:2 and garbage around them
    for (uint32_t r = 0; r < tc::kTileRows; ++r)
      for (uint32_t c = 0; c < uint32_t(tc::kChunkK); c += 16) tc::pack_e2m1_b4x16_p64(&rows[r * tc::kChunkK + c], &tile[tc::tile_offset(r, c)]);
    for (uint32_t r = 0; r < tc::kTileRows; ++r) {
      const std::span<const uint8_t> row(&rows[r * tc::kChunkK], tc::kChunkK);
      for (uint32_t k = 0; k < uint32_t(tc::kChunkK); ++k) {
        const tc::ElementPlace p = tc::element_place(r, k, true);
        REQUIRE(uint32_t(tile[p.byte] >> p.shift & 0xF) == mma::element_bits(spec, row, int(k)));
        ++count;
      }
      for (uint32_t c = 0; c < uint32_t(tc::kChunkK); c += 16) {
        const uint8_t* container = &tile[tc::tile_offset(r, c)];
        for (int i = 0; i < 16; ++i)  // the data half is the model's packed FP4, the padding zeros
          if (i < 8) {
            REQUIRE(mma::element_bits(packed, std::span<const uint8_t>(container, 8), 2 * i) == mma::element_bits(spec, row, int(c) + 2 * i));
            REQUIRE(mma::element_bits(packed, std::span<const uint8_t>(container, 8), 2 * i + 1) == mma::element_bits(spec, row, int(c) + 2 * i + 1));
          } else {
            REQUIRE(container[i] == 0);
          }
      }
    }
  }
  count.report(50 * 128 * 64);
  for (uint32_t r = 0; r < 3; ++r)  // 8-bit containers: the byte itself
    for (uint32_t k = 0; k < 64; ++k) REQUIRE((tc::element_place(r, k, false).byte == tc::tile_offset(r, k) && tc::element_place(r, k, false).shift == 0));
}

TEST_CASE("tcgen05 encoding: the chain of each output is ceil(K / 32) instructions, none past K", "[device]") {
  test::CaseCount count("tcgen05 K chains");
  for (size_t k = 0; k <= 1100; ++k) {
    size_t total = 0;
    for (size_t k0 = 0; k0 < k; k0 += tc::kChunkK) {
      const int n = tc::instructions_in_chunk(k, k0);
      REQUIRE((n >= 1 && n <= tc::kChunkK / tc::kInstrK));
      for (int j = 0; j < n; ++j) REQUIRE(k0 + size_t(j * tc::kInstrK) < k);  // every instruction starts inside K
      REQUIRE(k0 + size_t(n * tc::kInstrK) >= std::min(k, k0 + tc::kChunkK));     // and they cover the chunk's K
      total += size_t(n);
    }
    REQUIRE(total == (k + 31) / 32);
    REQUIRE(tc::instructions_in_chunk(k, (k + 63) / 64 * 64) == 0);
    ++count;
  }
  count.report(1101);
}

TEST_CASE("tcgen05 encoding: the 32x32b loads of four warps reach each accumulator once", "[device]") {
  const uint32_t base = 0x00000100;  // an allocation at column 256, lane 0
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t warp = 0; warp < 4; ++warp)
    for (uint32_t col = 0; col < uint32_t(tc::kTileRows); col += 16) {
      const uint32_t address = tc::tmem_address(base, 32 * warp, col);
      REQUIRE(address >> 16 == 32 * warp);       // lane field: the warp's first lane
      REQUIRE((address & 0xFFFF) == 256 + col);  // column field
      for (uint32_t t = 0; t < 32; ++t)          // thread t: lane (address's lane) + t, register j: column + j
        for (uint32_t j = 0; j < 16; ++j) seen.insert({(address >> 16) + t, (address & 0xFFFF) - 256 + j});
    }
  REQUIRE(seen.size() == size_t(tc::kTileRows) * tc::kTileRows);
  REQUIRE(seen.begin()->first == 0);
  REQUIRE(seen.rbegin()->first == 127);
  REQUIRE(seen.rbegin()->second == 127);
}
