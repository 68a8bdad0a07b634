// What the elements of a subject's array that differ from the CPU's have in common, for a report:
// how many of the array they are, an axis on which they all share one index ("all in row 3"), and
// how each found value relates to the expected one where one relation holds for all of them (FP64:
// "found = expected x 2^1", "found = -expected"; integers: "found = expected + 251").
#pragma once
#include <string>

#include "trace/tensor.hpp"

namespace ozref::schemes {

// "6 of 48 elements, all in row 3 (m), each found = expected x 2^1"; `found` and `expected` have
// `spec`'s dtype and shape. An array of W-word integers (integer_words > 1) counts integers.
std::string difference_pattern(const Tensor& found, const Tensor& expected, const ArraySpec& spec);

// W for an array of W-word integers (i8, last axis "W": a CRT's C', an Ozaki-I accumulation); else 1.
size_t integer_words(const ArraySpec& spec);
// How many of the W-word integers differ (a group of `words` elements with any word differing).
size_t differing_integers(const Tensor& found, const Tensor& expected, size_t words);
// "found X, expected Y", decimal, of the W-word integer whose first word is element `first`.
std::string integer_values(const Tensor& found, const Tensor& expected, size_t first, size_t words);

}  // namespace ozref::schemes
