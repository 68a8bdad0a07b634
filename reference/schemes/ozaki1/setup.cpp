#include "schemes/ozaki1/setup.hpp"

#include "schemes/ozaki1/stages.hpp"
#include "schemes/pipeline/arrays.hpp"

namespace ozref::schemes::ozaki1 {
namespace {

const char* scheme_name(Ozaki1Variant v) { return v == Ozaki1Variant::Fp4 ? "ozaki1-fp4" : "ozaki1-int8"; }

std::vector<std::pair<size_t, size_t>> kept_pairs(size_t p) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t t = 0; t < p; ++t)
    for (size_t u = 0; t + u < p; ++u) pairs.push_back({t, u});
  return pairs;
}

}  // namespace

Setup::Setup(const Ozaki1Options& options, size_t rows, size_t cols, size_t depth, bool stacked_input)
    : o(options),
      scheme(scheme_name(options.variant)),
      m(rows),
      n(cols),
      k(depth),
      p(ozaki1_slice_count(options)),
      fused(options.accumulation == Accumulation::Fused),
      exact(options.accumulation != Accumulation::Fp64),
      stacked(stacked_input),
      sl(options.variant, p, (depth + 31) / 32 * 32, fused ? p : 1),
      pairs(kept_pairs(p)) {
  // One GEMM per operand signedness the pairs need (the cublas slicing mixes s8 and u8 slices),
  // set up before any stage runs so that a missing instruction is refused at once.
  for (const auto& [t, u] : pairs) {
    const std::pair<bool, bool> sign{sl.slice_signed(t), sl.slice_signed(u)};
    if (gemms.count(sign)) continue;
    gemms.emplace(sign, LowpGemm(sl.format() == LowpFormat::Int8 ? scheme_int8_instruction(o.arch, sign.first, sign.second, scheme)
                                                                 : scheme_instruction(o.arch, sl.format(), "", scheme),
                                 sl.format()));
  }
}

size_t Setup::words() const {
  // |C'| <= sum over the kept pairs of weight(t + u) K 255^2 (no slice exceeds 255 in magnitude).
  mpz_class bound = 0;
  for (const auto& [t, u] : pairs) bound += sl.weight(t + u) * static_cast<unsigned long>(k) * 255 * 255;
  return (mpz_sizeinbase(bound.get_mpz_t(), 2) + 1 + 63) / 64;
}

std::string_view Setup::source() const { return stacked ? Stack::kName : kInputStage; }

}  // namespace ozref::schemes::ozaki1
