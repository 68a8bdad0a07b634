// The operands the MMA-level lockstep draws (mma/operand_distributions.hpp), decoded by the formats
// library: every byte an element's encoding of the instruction's operand type (E2M1 in bits 5:2 of
// its container, the padding zero), `finite` never NaN or infinite, `extreme` the most negative
// value, values rounded to nearest, and `encodings` reaching every pattern.
#include <set>

#include "formats/decode.hpp"
#include "formats/format.hpp"
#include "mma/operand_distributions.hpp"
#include "mma/op_names.hpp"
#include "common/error.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::mma;

namespace {

const InstructionSpec& fp4_spec() { return instruction(arch("sm_120"), op_name::mma_sync_f8f6f4("e2m1")); }
const InstructionSpec& fp8_spec() { return instruction(arch("sm_90"), op_name::mma_sync_fp8("e4m3")); }

std::vector<uint8_t> draw(const InstructionSpec& s, const char* dist, size_t count) {
  Rng rng(test::seed());
  return random_operand(s, false, 1, count, parse_operand_distribution(dist), rng);
}

}  // namespace

TEST_CASE("operand distributions: E2M1 containers hold a code in bits 5:2 and zero padding", "[mma]") {
  const InstructionSpec& s = fp4_spec();
  REQUIRE(one_byte_per_element(s));
  std::set<int> codes;
  for (uint8_t byte : draw(s, "encodings", 4096)) {
    INFO("byte " << int(byte));
    REQUIRE((byte & 0xC3) == 0);
    codes.insert(byte >> 2);
  }
  REQUIRE(codes.size() == 16);  // every E2M1 pattern, both zeros included
  const FormatSpec& e2m1 = format_spec(FormatId::E2M1);
  for (uint8_t byte : draw(s, "extreme", 8)) REQUIRE(byte == ((e2m1.max_finite_encoding() | e2m1.sign_mask()) << 2));
  // Integers in [-1, 1]: E2M1 codes 0 (+0), 0b0010 (1) and 0b1010 (-1), shifted into bits 5:2.
  std::set<int> values;
  for (uint8_t byte : draw(s, "integers:1", 256)) values.insert(byte);
  REQUIRE(values == std::set<int>{0x00, 0x02 << 2, 0x0A << 2});
}

TEST_CASE("operand distributions: finite draws no NaN or infinity and reach every finite E4M3 pattern", "[mma]") {
  const FormatSpec& e4m3 = format_spec(FormatId::E4M3);
  std::set<int> seen;
  test::CaseCount cases("finite e4m3 operand bytes");
  for (uint8_t byte : draw(fp8_spec(), "finite", 1 << 14)) {
    REQUIRE(decode(e4m3, byte).is_finite());
    seen.insert(byte);
    ++cases;
  }
  REQUIRE(seen.size() == 254);  // 256 patterns less the two NaNs (E4M3 has no infinity)
  cases.report(1 << 14);
}

TEST_CASE("operand distributions: block-scaled and packed FP4 instructions are refused", "[mma]") {
  const InstructionSpec& packed = instruction(arch("sm_120"), op_name::mma_sync_block_scaled("m16n8k64", "mxf4", "2X", "e2m1", "ue8m0"));
  REQUIRE_FALSE(one_byte_per_element(packed));
  Rng rng(1);
  REQUIRE_THROWS_AS(random_operand(packed, false, 1, 64, parse_operand_distribution("encodings"), rng), InputError);
}
