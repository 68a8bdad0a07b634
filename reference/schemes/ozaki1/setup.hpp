// What every Ozaki-I stage of one run shares: the slicing, the kept slice pairs, the low-precision
// GEMM of each operand signedness, and where the stages read the matrices (the inputs, or the
// stack stage's stacked matrices of a complex run). m, n, k are those of the real product the
// slices multiply (the stacked product of a complex run: 2m, n, 2k).
#pragma once
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "schemes/ozaki1/scheme.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes::ozaki1 {

struct Setup {
  Setup(const Ozaki1Options& options, size_t m, size_t n, size_t k, bool stacked);
  Ozaki1Options o;
  std::string scheme;
  size_t m, n, k, p;
  bool fused, exact, stacked;
  Slicing sl;
  std::vector<std::pair<size_t, size_t>> pairs;  // t + u <= p - 1, in the order t = 0..p-1, u = 0..p-1-t
  std::map<std::pair<bool, bool>, LowpGemm> gemms;  // by the signedness of the two slices

  const LowpGemm& lead() const { return gemms.at({true, true}); }  // the leading pair, and every fused GEMM
  const LowpGemm& gemm_for(size_t t, size_t u) const { return gemms.at({sl.slice_signed(t), sl.slice_signed(u)}); }
  size_t outputs() const { return fused ? p : pairs.size(); }  // GEMM outputs
  size_t words() const;                                       // 64-bit words of the exact C'
  std::string_view source() const;                            // "input" or "stack"
};

}  // namespace ozref::schemes::ozaki1
