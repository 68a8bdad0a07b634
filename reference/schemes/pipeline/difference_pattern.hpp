// What the elements of a subject's array that differ from the CPU's have in common, for a report:
// how many of the array they are, an axis on which they all share one index ("all in row 3"), and
// how each found value relates to the expected one where one relation holds for all of them (FP64:
// "found = expected x 2^1", "found = -expected"; integers: "found = expected + 251").
#pragma once
#include <string>

#include "trace/tensor.hpp"

namespace ozref::schemes {

// "6 of 48 elements, all in row 3 (m), each found = expected x 2^1"; `found` and `expected` have
// `spec`'s dtype and shape.
std::string difference_pattern(const Tensor& found, const Tensor& expected, const ArraySpec& spec);

}  // namespace ozref::schemes
