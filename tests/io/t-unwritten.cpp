// compare_arrays's unwritten elements (trace/compare.hpp): a subject's element still holding the
// canary (Tensor::fill_canary) where the CPU's does not is counted as never written, and the first
// is found. Oracle: exhaustive enumeration of one-byte element pairs, and NaN canaries of f8 placed
// by hand.
#include <cstring>

#include "support.hpp"
#include "trace/compare.hpp"

namespace ozref {
namespace {

TEST_CASE("compare_arrays: every i1 pair, the canary counted as unwritten only where the CPU's differs") {
  test::CaseCount cases("unwritten i1 pairs");
  for (int v = 0; v < 256; ++v)
    for (int w = 0; w < 256; ++w) {
      Tensor subject(DType::I1, {3}), cpu(DType::I1, {3});
      subject.fill_canary();  // elements 0 and 2 written, element 1 left as the canary would be unless v writes it
      subject.raw()[0] = 7, cpu.raw()[0] = 7;
      subject.raw()[1] = static_cast<uint8_t>(v), cpu.raw()[1] = static_cast<uint8_t>(w);
      subject.raw()[2] = 0, cpu.raw()[2] = 0;
      const ArrayDifference d = compare_arrays(subject, cpu);
      REQUIRE(d.differing == (v != w ? 1u : 0u));
      REQUIRE(d.unwritten == (v == 0xA5 && w != 0xA5 ? 1u : 0u));
      if (d.unwritten) REQUIRE(d.first_unwritten == 1);
      ++cases;
    }
  cases.report(65536);
}

TEST_CASE("compare_arrays: f8 elements left as the NaN canary, the first named, written differences apart") {
  Tensor subject(DType::F8, {2, 3}), cpu(DType::F8, {2, 3});
  subject.fill_canary();
  const double written[6] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, expected[6] = {1.0, 2.5, 3.0, 4.0, 5.0, 6.0};
  std::memcpy(cpu.raw(), expected, sizeof expected);
  for (size_t i : {0, 1, 2, 5}) std::memcpy(subject.raw() + 8 * i, &written[i], 8);  // [1, 0] and [1, 1] never written
  const ArrayDifference d = compare_arrays(subject, cpu);
  CHECK(d.differing == 3);  // [0, 1] written wrong, [1, 0] and [1, 1] unwritten
  CHECK(d.first == 1);
  CHECK(d.unwritten == 2);
  CHECK(d.first_unwritten == 3);
  CHECK(is_canary(DType::F8, subject.raw() + 8 * 3));
  CHECK_FALSE(is_canary(DType::F8, cpu.raw() + 8 * 3));
}

}  // namespace
}  // namespace ozref
