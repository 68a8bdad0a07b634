// RapidCheck property: the vectorised general path of the FP8/FP4 MMA models (fp_block_gemm,
// both its AVX-512 and its portable build) gives the bits of the instruction chain (execute(),
// fused_dot_add) on every architecture spec it models, on encodings of every class (NaN and Inf
// included), C of every class and random block scales (NaN included), with either sign of a zero
// result (FusedBlock::zero_result_positive). Seeds and counts as in
// t-properties.cpp.
#include <rapidcheck/catch.h>

#include <algorithm>

#include "generators.hpp"
#include "mma/fp_block_gemm.hpp"
#include "mma/gemm.hpp"

using namespace ozref;

namespace {

bool modelled(const std::string& arch, const std::string& op_part) {
  for (const mma::InstructionSpec& s : mma::arch(arch).instructions)
    if (s.op.find(op_part) != std::string::npos && mma::fp_block_gemm_applies(s)) return true;
  return false;
}

// Operand bytes of `count` elements: encodings of every class (specials only if asked; E2M1 has
// none), in the instruction's packing.
std::vector<uint8_t> gen_operand(const mma::InstructionSpec& s, size_t count, bool specials) {
  const FormatSpec& f = format_spec(s.a_format);
  auto element = [&] { return uint8_t((*test::gen_encoding(f, specials)).bits); };
  std::vector<uint8_t> out(s.packing == mma::Packing::PackedFp4 ? count / 2 : count);
  for (auto& byte : out) {
    switch (s.packing) {
      case mma::Packing::PaddedFp4: byte = uint8_t(element() << 2); break;
      case mma::Packing::PackedFp4: byte = uint8_t(element() | element() << 4); break;
      default: byte = element();
    }
  }
  return out;
}

}  // namespace

TEST_CASE("property: the vectorised FP8/FP4 general path equals the instruction chain on every spec", "[properties]") {
  const std::vector<const mma::InstructionSpec*> specs = mma::fp_block_gemm_specs();
  // The instructions the issue names must be among them (every FP8/FP4 byte-operand kind).
  for (auto [arch, op] : {std::pair{"sm_89", "e4m3"}, {"sm_90", "wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2"},
                          {"sm_90", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3"}, {"sm_100", "kind::f8f6f4.e2m1"},
                          {"sm_100", "kind::mxf8f6f4.block_scale.scale_vec::1X.e4m3"}, {"sm_120", "kind::f8f6f4"},
                          {"sm_120", "kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e2m1"}, {"sm_100", "kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3"},
                          {"sm_120", "kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"}, {"sm_100+zero-groups-ignored", "kind::mxf4"}}) {
    INFO(arch << " " << op);
    REQUIRE(modelled(arch, op));
  }
  INFO(specs.size() << " instruction specs modelled by the vectorised path");
  rc::prop("fp block gemm = instruction chain", [&specs] {
    mma::InstructionSpec s = **rc::gen::elementOf(specs);
    // Either sign of a zero result (scaled blocks reach sums below 2^-149, where it shows).
    s.block.zero_result_positive = *rc::gen::arbitrary<bool>();
    RC_CLASSIFY(s.block.zero_result_positive, "zero_result_positive");
    const bool specials = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
    const size_t m = *rc::gen::inRange<size_t>(1, 7), n = *rc::gen::inRange<size_t>(1, 36);
    const size_t k = size_t(s.k) * *rc::gen::inRange<size_t>(1, 4);
    const std::vector<uint8_t> a = gen_operand(s, m * k, specials), b = gen_operand(s, n * k, specials);
    std::vector<uint32_t> c(m * n);
    for (auto& v : c) v = uint32_t((*test::gen_encoding(format_spec(FormatId::FP32), specials)).bits);
    std::vector<uint8_t> sa, sb;
    if (s.kind == mma::Kind::BlockScaled) {  // near 2^0 (so that products and C meet), or any byte
      const bool any = *rc::gen::arbitrary<bool>();
      const bool ue8m0 = s.scale_format == FormatId::UE8M0;
      auto scale = [any, ue8m0] {
        return any ? *rc::gen::arbitrary<uint8_t>() : ue8m0 ? *rc::gen::inRange<uint8_t>(110, 145) : *rc::gen::inRange<uint8_t>(0x28, 0x48);
      };
      for (size_t i = 0; i < m * k / size_t(s.scale_block); ++i) sa.push_back(scale());
      for (size_t i = 0; i < n * k / size_t(s.scale_block); ++i) sb.push_back(scale());
    }
    const bool with_c = *rc::gen::arbitrary<bool>();
    const mma::GemmOperands x{m, n, k, a, b, sa, sb, with_c ? std::span<const uint32_t>(c) : std::span<const uint32_t>()};
    RC_CLASSIFY(true, s.op.substr(0, 40));
    RC_CLASSIFY(specials, "specials");
    const std::vector<uint32_t> chain = mma::gemm(s, x, {.threads = 1, .allow_fast_path = false});
    for (bool portable : {false, true}) {
      mma::force_portable_fp_block_gemm(portable);
      std::vector<uint32_t> d(m * n, 0xDEADBEEFu);  // canary: every element must be written
      const bool ran = mma::fp_block_gemm(s, x, 2, d);
      mma::force_portable_fp_block_gemm(false);
      RC_ASSERT(ran);
      RC_ASSERT(d == chain);
    }
  });
}
