// fuzz_mma_fp: the vectorised general path of the FP8/FP4 MMA models (fp_block_gemm, its AVX-512
// and its portable build) against the instruction chain (gemm without fast paths), on operands
// read from the input bytes: byte 0 picks an instruction among all those the path models, on
// every architecture spec; byte 1 the shape (m in 1..6, one or two instruction K steps), byte 2
// n in 1..20 (one or two panels of 16 columns); then A, B, the scales and C (4 bytes each), in
// that order, zero where the input ends. Any difference aborts with the instruction and element.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mma/fp_block_gemm.hpp"
#include "mma/gemm.hpp"

namespace {

using namespace ozref;

// The next input byte, or zero past the end.
struct Reader {
  const uint8_t* data;
  size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<const mma::InstructionSpec*> specs = mma::fp_block_gemm_specs();
  if (size < 3) return 0;
  Reader in{data, size};
  const mma::InstructionSpec& s = *specs[in.next() % specs.size()];
  const uint8_t shape = in.next();
  const size_t m = 1 + shape % 6, k = size_t(s.k) * (1 + (shape / 6) % 2), n = 1 + in.next() % 20;
  const uint8_t unused = s.packing == mma::Packing::PaddedFp4 ? 0x3C : 0xFF;  // container bits that must be zero
  const size_t per_element = s.packing == mma::Packing::PackedFp4 ? 2 : 1;  // elements per byte
  std::vector<uint8_t> a(m * k / per_element), b(n * k / per_element), sa, sb;
  for (auto& v : a) v = in.next() & unused;
  for (auto& v : b) v = in.next() & unused;
  if (s.kind == mma::Kind::BlockScaled) {
    sa.resize(m * k / size_t(s.scale_block));
    sb.resize(n * k / size_t(s.scale_block));
    for (auto& v : sa) v = in.next();
    for (auto& v : sb) v = in.next();
  }
  std::vector<uint32_t> c(m * n);
  for (auto& v : c)
    for (int byte = 0; byte < 4; ++byte) v = v << 8 | in.next();
  const mma::GemmOperands x{m, n, k, a, b, sa, sb, c};
  const std::vector<uint32_t> chain = mma::gemm(s, x, {.threads = 1, .allow_fast_path = false});
  for (bool portable : {false, true}) {
    mma::force_portable_fp_block_gemm(portable);
    std::vector<uint32_t> d(m * n, 0xDEADBEEFu);
    const bool ran = mma::fp_block_gemm(s, x, 1, d);
    mma::force_portable_fp_block_gemm(false);
    for (size_t i = 0; i < d.size(); ++i)
      if (!ran || d[i] != chain[i]) {
        std::fprintf(stderr, "fuzz_mma_fp: %s (%s): element %zu of %zux%zux%zu: %08x, the chain gives %08x\n", s.op.c_str(),
                     portable ? "portable" : "avx-512 where present", i, m, n, k, d[i], chain[i]);
        std::abort();
      }
  }
  return 0;
}
