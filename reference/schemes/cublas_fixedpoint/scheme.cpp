#include "schemes/cublas_fixedpoint/scheme.hpp"

#include <string_view>

#include "common/decimal_text.hpp"
#include "common/error.hpp"
#include "schemes/cublas_fixedpoint/dynamic_count.hpp"
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/common/input_checks.hpp"

namespace ozref::schemes {
namespace {

using namespace cublas_fixedpoint;

constexpr int kMinBits = 23, kMaxFixedBits = 79, kMaxBits = 127;
constexpr int kMaxDynamicCount = 1 << 20;  // beyond any count: the rule gives at most 54 + 2 (1024 + 1073)
constexpr std::string_view kDynamicPrefix = "dynamic:";
constexpr size_t kMaxDigitProducts = 131071;  // p kb 2^14 < 2^31: every INT32 sum exact

std::string usage() {
  return " " + std::to_string(kMinBits) + ".." + std::to_string(kMaxFixedBits) + " (cuBLAS's FIXED control; it accepts up to " +
         std::to_string(kMaxBits) + "), dynamic, or dynamic:N[:MAX] (a DYNAMIC run's count N, 0.." + std::to_string(kMaxDynamicCount) +
         ", under its max mantissa bit count MAX, 1.." + std::to_string(kMaxBits) + " or 0: cuBLAS's default, " + std::to_string(kDefaultDynamicMax) + ")";
}

// The integer `digits` in lo..hi, a part of --mantissa-bits `value`.
int integer_in(const std::string& digits, int lo, int hi, const std::string& value) {
  if (!decimal_integer_in(digits, lo, static_cast<unsigned long long>(hi)))  // as every integer option reads its text
    throw InputError(std::string(kCublasFixedpointScheme) + ": --mantissa-bits must be an integer" + usage() + "; got " + quoted_excerpt(value));
  return std::stoi(digits);
}

}  // namespace

CublasMantissaBits cublas_mantissa_bits(const std::string& value) {
  const std::string name = kCublasFixedpointScheme;
  if (value.empty()) throw InputError(name + " needs --mantissa-bits:" + usage());
  if (value == "dynamic")
    throw InputError(name +
                     ": --mantissa-bits dynamic needs the inputs to choose its count, and this run builds the scheme without them "
                     "(`ozref run` resolves it; or give the count: --mantissa-bits dynamic:N or N)");
  if (value.rfind(kDynamicPrefix, 0) != 0) return {integer_in(value, kMinBits, kMaxBits, value), false, 0};
  const std::string rest = value.substr(kDynamicPrefix.size());
  const size_t colon = rest.find(':');
  const int count = integer_in(rest.substr(0, colon), 0, kMaxDynamicCount, value);
  const int max = colon == std::string::npos ? 0 : integer_in(rest.substr(colon + 1), 0, kMaxBits, value);
  return {count, true, max == 0 ? kDefaultDynamicMax : max};
}

std::string with_dynamic_count(const std::string& value, const double* a, const double* b, size_t m, size_t n, size_t k) {
  if (value != "dynamic") return value;
  return std::string(kDynamicPrefix) + std::to_string(dynamic_bit_count(a, b, m, n, k));
}

namespace {

// The options a run records: what cublas_mantissa_bits reads back.
std::string mantissa_option(const CublasMantissaBits& control) {
  if (!control.dynamic) return std::to_string(control.bits);
  const std::string max = control.max_bits == kDefaultDynamicMax ? "" : ":" + std::to_string(control.max_bits);
  return std::string(kDynamicPrefix) + std::to_string(control.bits) + max;
}

void add_input_checks(Scheme& s) {
  s.check_inputs = [name = s.name, m = s.m, n = s.n, k = s.k](const Arrays& in) {
    require_finite({in.get({kInputStage, "a"}).as<double>(), m, k}, name.c_str(), "A");
    require_finite({in.get({kInputStage, "b"}).as<double>(), k, n}, name.c_str(), "B");
  };
}

// DYNAMIC above its max: one stage, native FP64.
Scheme fallback_scheme(const CublasMantissaBits& control, size_t m, size_t n, size_t k) {
  Scheme s;
  s.name = kCublasFixedpointScheme;
  s.options = {{"arch", "sm_90"}, {"mantissa-bits", mantissa_option(control)}};
  s.resolved = {{"arch", "sm_90"}, {"mantissa_bits", control.bits}, {"max_mantissa_bits", control.max_bits},
                {"mantissa_control", "DYNAMIC above its max mantissa bit count: native FP64 (docs/third-party.md)"}};
  s.m = m, s.n = n, s.k = k;
  s.stages.push_back(std::make_unique<Fallback>(std::make_shared<const Setup>(0, 0, m, n, k)));
  s.result = {Fallback::kName, "c"};
  s.exact_by_design = false;  // FP64 FMAs and sums
  add_input_checks(s);
  return s;
}

}  // namespace

Scheme cublas_fixedpoint_scheme(CublasMantissaBits control, size_t kblock, size_t m, size_t n, size_t k) {
  const std::string name = kCublasFixedpointScheme;
  const int bits = control.bits;
  if (control.dynamic && bits > control.max_bits) return fallback_scheme(control, m, n, k);
  if (bits < (control.dynamic ? 0 : kMinBits) || bits > kMaxBits)
    throw InputError(name + ": mantissa bits must be 23..127 (a DYNAMIC count 0..127), got " + std::to_string(bits));
  const auto setup = std::make_shared<const Setup>(bits, kblock, m, n, k);
  if (setup->p * setup->kb > kMaxDigitProducts)
    throw InputError(name + ": K-blocks of " + std::to_string(setup->kb) + " with " + std::to_string(setup->p) +
                     " slices could overflow the INT32 sums (slices x K-block must be at most 131071); what cuBLAS does there is not recorded");
  Scheme s;
  s.name = name;
  s.options = {{"arch", "sm_90"}, {"mantissa-bits", mantissa_option(control)}};
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
  add_input_checks(s);
  return s;
}

}  // namespace ozref::schemes
