// Overflow inside the H200's fused HMMA sum (bf16 mma.sync m16n8k16), recorded by mma_probe's
// overflow tiles (device/probes/overflow_tiles.cu) under tests/data/traces/h200-overflow: the
// hardware's D on the targeted cases against values derived by hand from the case table, so that
// the verdict stands without the model (ctest's traces:h200-overflow-replay-sm_90 replays every
// record through the model as well).
#include <bit>
#include <map>
#include <vector>

#include "io/mma_trace.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
struct Expected {
  const char* tag;
  int row, col;  // in the tile; columns hold C = 0, 1, -1, 2^110, -2^110, FLT_MAX, +Inf, -Inf
  uint32_t d;
  const char* why;
};
}  // namespace

TEST_CASE("h200 HMMA overflow: the recorded hardware results of the targeted cases, derived by hand", "[mma]") {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data != nullptr);
  std::map<std::string, std::vector<MmaRecord>> by_tag;
  read_mma_trace(std::string(data) + "/traces/h200-overflow/bf16_overflow.jsonl.gz",
                 [&](const MmaRecord& r) { by_tag[r.tag].push_back(r); });
  REQUIRE(by_tag["overflow:targeted"].size() == 128);
  REQUIRE(by_tag["overflow:extreme"].size() == 128);
  const Expected cases[] = {
      {"targeted", 0, 0, 0x7F800000, "one product 2^130: +Inf"},
      {"targeted", 1, 0, 0xFF800000, "one product -2^130: -Inf"},
      {"targeted", 2, 0, 0x00000000, "2^130 - 2^130 cancels exactly (no Inf - Inf)"},
      {"targeted", 2, 3, 0x76800000, "2^130 - 2^130 + C = 2^110: C survives 20 bits below the alignment"},
      {"targeted", 3, 0, 0x76800000, "2^130 - 2^130 + 2^110 = 2^110"},
      {"targeted", 4, 0, 0x7F000000, "2^129 - 1.5 * 2^128 = 2^127: both products beyond range, the sum within"},
      {"targeted", 5, 0, 0x7F400000, "1.5 * 2^127 twice, then -1.5 * 2^127: the partial sum beyond range comes back"},
      {"targeted", 6, 0, 0x7F400000, "the same with the negative product first"},
      {"targeted", 7, 0, 0x7F800000, "in-range products whose sum 3 * 2^127 is beyond: +Inf"},
      {"targeted", 8, 0, 0x7F800000, "2^127 + 2^127 = 2^128: +Inf although the output rounds toward zero"},
      {"targeted", 9, 0, 0x7F800000, "2^140 - 2^139: +Inf, the sign of the sum"},
      {"targeted", 10, 0, 0xFF800000, "-2^140 + 2^139: -Inf"},
      {"targeted", 12, 0, 0x00000000, "2^150 - 2^150 + 2^100: 2^100 lies 50 bits below the alignment and is cut"},
      {"targeted", 12, 1, 0x00000000, "the same with C = 1: C is cut too"},
      {"targeted", 14, 0, 0x00000000, "alternating +-2^124 and 2^130 - 2^130: 0"},
      {"targeted", 15, 0, 0xFF800000, "an infinite product -Inf beside a finite 2^130: -Inf, not NaN"},
      {"targeted", 15, 6, 0x7FFFFFFF, "the same with C = +Inf: NaN"},
      {"extreme", 0, 0, 0x00000000, "the largest products (2 - 2^-7)^2 * 2^254 cancel exactly"},
      {"extreme", 7, 0, 0x7E800000, "2^128 - 1.5 * 2^127 = 2^126"},
      {"extreme", 8, 0, 0xFE800000, "-2^128 + 1.5 * 2^127 = -2^126"},
      {"extreme", 11, 0, 0x7F800000, "+Inf product beside a finite -2^130: +Inf"},
      {"extreme", 13, 0, 0x7F800000, "2^200 - 2^200 + 2^176: +Inf"},
      {"extreme", 14, 0, 0x7F800000, "2^200 - 2^200 + 2^175 (25 bits below): kept, +Inf"},
      {"extreme", 15, 0, 0x00000000, "2^200 - 2^200 + 2^174 (26 bits below): cut, 0"},
  };
  test::CaseCount checked("hand-derived H200 overflow results");
  for (const Expected& e : cases) {
    const MmaRecord& r = by_tag[std::string("overflow:") + e.tag][size_t(e.row) * 8 + size_t(e.col)];
    INFO(e.tag << " row " << e.row << " col " << e.col << ": " << e.why << "; recorded " << to_hex32(r.d));
    CHECK(r.d == e.d);
    ++checked;
  }
  checked.report(24);
}

TEST_CASE("h200 HMMA: a zero product does not raise the alignment exponent", "[mma]") {
  // Tile overflow:zero_product_alignment: k = 0 multiplies a zero by b_0 = 2^(127 - 8j) in column
  // j, the other products lie between 2^-31 and 2^-20, and rows 0-7 have C = 0. Were a zero
  // product aligned at -126 + e_b (MMA-Sim's reading), column 0 would align at 2^1 and keep 25
  // fraction bits: D a multiple of 2^-24, and D would change with j. The hardware's D is the same
  // in every column and finer than 2^-24.
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data != nullptr);
  std::vector<MmaRecord> tile;
  read_mma_trace(std::string(data) + "/traces/h200-overflow/bf16_overflow.jsonl.gz", [&](const MmaRecord& r) {
    if (r.tag == "overflow:zero_product_alignment") tile.push_back(r);
  });
  REQUIRE(tile.size() == 128);
  test::CaseCount rows("zero-product rows (8 columns each)");
  for (size_t row = 0; row < 8; ++row) {
    const uint32_t d = tile[row * 8].d;
    const int exponent = int((d >> 23) & 0xFF) - 127, trailing = std::countr_zero(d | 0x800000u);  // lsb of the significand
    INFO("row " << row << " D " << to_hex32(d));
    CHECK(tile[row * 8].c == 0u);
    CHECK(exponent - 23 + trailing < -24);  // not a multiple of 2^-24
    for (size_t col = 1; col < 8; ++col) CHECK(tile[row * 8 + col].d == d);
    ++rows;
  }
  rows.report(8);
}
