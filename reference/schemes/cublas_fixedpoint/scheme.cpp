#include "schemes/cublas_fixedpoint/scheme.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

using namespace cublas_fixedpoint;

constexpr int kMinBits = 23, kMaxFixedBits = 79, kMaxBits = 127;
constexpr size_t kMaxDigitProducts = 131071;  // p kb 2^14 < 2^31: every INT32 sum exact

}  // namespace

int cublas_mantissa_bits(const std::string& value) {
  const std::string name = kCublasFixedpointScheme;
  if (value == "dynamic")
    throw InputError(name + ": --mantissa-bits dynamic is not modelled: how cuBLAS's DYNAMIC control chooses its bit count is not decoded "
                            "(docs/third-party.md). cuBLAS reports the count it used (cublasSetFixedPointEmulationMantissaBitCountPointer); "
                            "--mantissa-bits N with that count reproduces the DYNAMIC run's output");
  if (value.empty())
    throw InputError(name + " needs --mantissa-bits: " + std::to_string(kMinBits) + ".." + std::to_string(kMaxFixedBits) +
                     " (cuBLAS's FIXED control) or a count the DYNAMIC control reported (up to " + std::to_string(kMaxBits) + ")");
  // A plain decimal, leading zeros allowed as in every integer option; more than three significant
  // digits is out of range whatever they are.
  const size_t first = std::min(value.find_first_not_of('0'), value.size() - 1);
  const bool digits = std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) && value.size() - first <= 3;
  const int bits = digits ? std::stoi(value.substr(first)) : 0;
  if (bits < kMinBits || bits > kMaxBits)
    throw InputError(name + ": --mantissa-bits must be an integer " + std::to_string(kMinBits) + ".." + std::to_string(kMaxFixedBits) +
                     " (cuBLAS's FIXED control) or a count the DYNAMIC control reported (up to " + std::to_string(kMaxBits) + "); got " +
                     quoted_excerpt(value));
  return bits;
}

Scheme cublas_fixedpoint_scheme(int bits, size_t kblock, size_t m, size_t n, size_t k) {
  const std::string name = kCublasFixedpointScheme;
  if (bits < kMinBits || bits > kMaxBits) throw InputError(name + ": mantissa bits must be 23..127, got " + std::to_string(bits));
  const auto setup = std::make_shared<const Setup>(bits, kblock, m, n, k);
  if (setup->p * setup->kb > kMaxDigitProducts)
    throw InputError(name + ": K-blocks of " + std::to_string(setup->kb) + " with " + std::to_string(setup->p) +
                     " slices could overflow the INT32 sums (slices x K-block must be at most 131071); what cuBLAS does there is not recorded");
  Scheme s;
  s.name = name;
  s.options = {{"arch", "sm_90"}, {"mantissa-bits", std::to_string(bits)}};
  if (kblock) s.options["kblock"] = kblock;
  s.resolved = {{"arch", "sm_90"}, {"slices", setup->p}, {"mantissa_bits", setup->bits}, {"kblock", setup->kb}, {"kblocks", setup->blocks},
                {"instruction", setup->gemm.spec().op}, {"kblock_source", kblock ? "--kblock" : "the fitted rule (docs/third-party.md)"}};
  s.m = m, s.n = n, s.k = k;
  s.stages.push_back(std::make_unique<Scale>(setup));
  s.stages.push_back(std::make_unique<Slice>(setup));
  s.stages.push_back(std::make_unique<Gemm>(setup));
  s.stages.push_back(std::make_unique<Accumulate>(setup));
  for (const auto& st : s.stages) s.low_precision_gemms += st->gemms();
  s.result = {Accumulate::kName, "c"};
  s.exact_by_design = false;  // truncated to B bits, the far diagonals dropped, FP64 sums
  s.condition_by_construction = true;  // the scale and the bound on p kb keep every INT32 sum exact
  s.check_inputs = [name, m, n, k](const Arrays& in) {
    require_finite({in.get({kInputStage, "a"}).as<double>(), m, k}, name.c_str(), "A");
    require_finite({in.get({kInputStage, "b"}).as<double>(), k, n}, name.c_str(), "B");
  };
  return s;
}

}  // namespace ozref::schemes
