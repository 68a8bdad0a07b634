#include "formats/format.hpp"

#include "common/error.hpp"

namespace ozref {
namespace {

// Sources: OCP 8-bit Floating Point Specification (OFP8) rev 1.0 for E4M3 (the "fn" form: no
// infinity, NaN only S.1111.111, max 448) and E5M2; OCP Microscaling Formats (MX) v1.0 for E2M1
// (no infinity or NaN, max 6) and E8M0 (2^(e-127), 0xFF is NaN, no zero); NVIDIA's PTX ISA for
// UE4M3 (the unsigned E4M3 block scale of mxf4nvf4); IEEE 754-2019 for FP16, FP32, FP64; BF16 is
// FP32's upper half.
const FormatSpec kSpecs[] = {
    {FormatId::E4M3, "e4m3", 8, 4, 3, 7, true, false, false, NanRule::AllOnes, true},
    {FormatId::E5M2, "e5m2", 8, 5, 2, 15, true, false, true, NanRule::ExponentAllOnes, true},
    {FormatId::E2M1, "e2m1", 4, 2, 1, 1, true, false, false, NanRule::None, true},
    {FormatId::UE8M0, "ue8m0", 8, 8, 0, 127, false, false, false, NanRule::AllOnes, false},
    {FormatId::UE4M3, "ue4m3", 8, 4, 3, 7, false, true, false, NanRule::AllOnes, true},
    {FormatId::FP16, "fp16", 16, 5, 10, 15, true, false, true, NanRule::ExponentAllOnes, true},
    {FormatId::BF16, "bf16", 16, 8, 7, 127, true, false, true, NanRule::ExponentAllOnes, true},
    {FormatId::FP32, "fp32", 32, 8, 23, 127, true, false, true, NanRule::ExponentAllOnes, true},
    {FormatId::FP64, "fp64", 64, 11, 52, 1023, true, false, true, NanRule::ExponentAllOnes, true},
};

}  // namespace

uint64_t FormatSpec::max_finite_encoding() const {
  const uint64_t emax = exponent_field_max();
  switch (nan_rule) {
    case NanRule::ExponentAllOnes:  // exponent all ones is reserved: one below, fraction all ones
      return ((emax - 1) << fraction_bits) | fraction_mask();
    case NanRule::AllOnes:  // only the all-ones pattern is NaN: one below it
      return ((emax << fraction_bits) | fraction_mask()) - 1;
    case NanRule::None:
      return (emax << fraction_bits) | fraction_mask();
  }
  return 0;
}

uint64_t FormatSpec::canonical_nan() const {
  const uint64_t exp_ones = uint64_t{exponent_field_max()} << fraction_bits;
  if (nan_rule == NanRule::AllOnes) return exp_ones | fraction_mask();
  // IEEE quiet NaN: the leading fraction bit set (E5M2: 0x7E; CUDA's FP32 canonical is 0x7FFFFFFF,
  // but any NaN compares equal under the NaN-aware comparators).
  return exp_ones | (uint64_t{1} << (fraction_bits - 1));
}

const FormatSpec& format_spec(FormatId id) { return kSpecs[static_cast<int>(id)]; }

const FormatSpec& format_by_name(std::string_view name) {
  for (const auto& spec : kSpecs)
    if (spec.name == name) return spec;
  throw InputError("unknown number format '" + std::string(name) +
                   "' (known: e4m3, e5m2, e2m1, ue8m0, ue4m3, fp16, bf16, fp32, fp64)");
}

const std::vector<FormatId>& all_formats() {
  static const std::vector<FormatId> ids = {FormatId::E4M3,  FormatId::E5M2, FormatId::E2M1,
                                            FormatId::UE8M0, FormatId::UE4M3, FormatId::FP16,
                                            FormatId::BF16,  FormatId::FP32, FormatId::FP64};
  return ids;
}

}  // namespace ozref
