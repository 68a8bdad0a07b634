#include "schemes/cublas_fixedpoint/scheme.hpp"

#include <string_view>

#include "common/decimal_text.hpp"
#include "common/error.hpp"
#include "schemes/cublas_fixedpoint/dynamic_count.hpp"
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

using namespace cublas_fixedpoint;

constexpr int kMinBits = 23, kMaxFixedBits = 79, kMaxBits = 127;
constexpr std::string_view kDynamicPrefix = "dynamic:";
constexpr size_t kMaxDigitProducts = 131071;  // p kb 2^14 < 2^31: every INT32 sum exact

// The count in `digits`, the part of --mantissa-bits `value` after any "dynamic:".
int count_of(const std::string& digits, const std::string& value) {
  const std::string name = kCublasFixedpointScheme;
  if (digits.empty())
    throw InputError(name + " needs --mantissa-bits: " + std::to_string(kMinBits) + ".." + std::to_string(kMaxFixedBits) +
                     " (cuBLAS's FIXED control) or a count the DYNAMIC control reported (up to " + std::to_string(kMaxBits) + ")");
  if (!decimal_integer_in(digits, kMinBits, kMaxBits))  // as every integer option reads its text
    throw InputError(name + ": --mantissa-bits must be an integer " + std::to_string(kMinBits) + ".." + std::to_string(kMaxFixedBits) +
                     " (cuBLAS's FIXED control) or a count the DYNAMIC control reported (up to " + std::to_string(kMaxBits) + "); got " +
                     quoted_excerpt(value));
  return std::stoi(digits);
}

}  // namespace

CublasMantissaBits cublas_mantissa_bits(const std::string& value) {
  if (value == "dynamic")
    throw InputError(std::string(kCublasFixedpointScheme) +
                     ": --mantissa-bits dynamic needs the inputs to choose its count, and this run builds the scheme without them "
                     "(`ozref run` resolves it; or give the count: --mantissa-bits dynamic:N or N)");
  const bool dynamic = value.rfind(kDynamicPrefix, 0) == 0;
  return {count_of(dynamic ? value.substr(kDynamicPrefix.size()) : value, value), dynamic};
}

std::string with_dynamic_count(const std::string& value, const double* a, const double* b, size_t m, size_t n, size_t k) {
  if (value != "dynamic") return value;
  const int count = dynamic_bit_count(a, b, m, n, k);
  if (count > kMaxBits)
    throw InputError(std::string(kCublasFixedpointScheme) + ": --mantissa-bits dynamic: the DYNAMIC rule gives " + std::to_string(count) +
                     " bits on these inputs, above the " + std::to_string(kMaxBits) + " this scheme models (what cuBLAS does there is not recorded)");
  return std::string(kDynamicPrefix) + std::to_string(count);
}

Scheme cublas_fixedpoint_scheme(CublasMantissaBits control, size_t kblock, size_t m, size_t n, size_t k) {
  const std::string name = kCublasFixedpointScheme;
  const int bits = control.bits;
  if (bits < kMinBits || bits > kMaxBits) throw InputError(name + ": mantissa bits must be 23..127, got " + std::to_string(bits));
  const auto setup = std::make_shared<const Setup>(bits, kblock, m, n, k);
  if (setup->p * setup->kb > kMaxDigitProducts)
    throw InputError(name + ": K-blocks of " + std::to_string(setup->kb) + " with " + std::to_string(setup->p) +
                     " slices could overflow the INT32 sums (slices x K-block must be at most 131071); what cuBLAS does there is not recorded");
  Scheme s;
  s.name = name;
  s.options = {{"arch", "sm_90"}, {"mantissa-bits", (control.dynamic ? std::string(kDynamicPrefix) : std::string()) + std::to_string(bits)}};
  if (kblock) s.options["kblock"] = kblock;
  s.resolved = {{"arch", "sm_90"}, {"slices", setup->p}, {"mantissa_bits", setup->bits}, {"kblock", setup->kb}, {"kblocks", setup->blocks},
                {"instruction", setup->gemm.spec().op},
                {"mantissa_control", control.dynamic ? "DYNAMIC (the count from the decoded rule)" : "the count given"}, {"kblock_source", kblock ? "--kblock" : "the fitted rule (docs/third-party.md)"}};
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
