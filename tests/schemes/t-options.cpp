// The named options of the schemes (--verify, --mode, --crt, --accumulate): every name maps to its
// value, and an unknown one is refused with a message listing the known names.
#include <catch2/catch.hpp>

#include "common/named_choice.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scaling.hpp"
#include "schemes/stage_report.hpp"

using namespace ozref;
using namespace ozref::schemes;

TEST_CASE("options: each name gives its value, an unknown name is refused listing the known ones", "[schemes]") {
  CHECK(named_choice<int>("b", "thing", {{"a", 1}, {"b", 2}}) == 2);
  CHECK_THROWS_WITH(named_choice<int>("c", "thing", {{"a", 1}, {"b", 2}}), "unknown thing 'c' (known: a, b)");
  CHECK_THROWS_WITH(named_choice<int>("A", "thing", {{"a", 1}}), "unknown thing 'A' (known: a)");  // case matters

  CHECK(parse_verify("none") == Verify::None);
  CHECK(parse_verify("cheap") == Verify::Cheap);
  CHECK(parse_verify("full") == Verify::Full);
  CHECK_THROWS_WITH(parse_verify("all"), "unknown --verify level 'all' (known: none, cheap, full)");
  CHECK(parse_scaling("fast") == ScalingMode::Fast);
  CHECK(parse_scaling("accurate") == ScalingMode::Accurate);
  CHECK(parse_scaling("gemmul8-fast") == ScalingMode::Gemmul8Fast);
  CHECK_THROWS_WITH(parse_scaling("slow"), "unknown --mode 'slow' (known: fast, accurate, gemmul8-fast)");
  CHECK(parse_crt("exact") == CrtVariant::Exact);
  CHECK(parse_crt("garner") == CrtVariant::Garner);
  CHECK(parse_crt("dd") == CrtVariant::DoubleDouble);
  CHECK_THROWS_WITH(parse_crt("gmp"), "unknown CRT variant 'gmp' (known: exact, garner, dd)");
  CHECK(parse_accumulation("exact") == Accumulation::Exact);
  CHECK(parse_accumulation("fp64") == Accumulation::Fp64);
  CHECK(parse_accumulation("fused") == Accumulation::Fused);
  CHECK_THROWS_WITH(parse_accumulation("fp32"), "unknown --accumulate 'fp32' (known: exact, fp64, fused)");
}
