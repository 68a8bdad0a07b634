// Bit-for-bit comparison of two stage arrays, and the text of an element and of an index for
// reports (`ozref diff`, the runner's comparisons of a subject with the CPU).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/tensor.hpp"

namespace ozref {

struct ArrayDifference {
  size_t differing = 0;  // elements whose bytes differ
  size_t first = 0;      // the first such element (flat, C order)
  std::string index;     // its index, "[t, i, j]"
  std::string left, right;
  // Differing elements where left still holds the canary (Tensor::fill_canary) and right does
  // not: elements the left array's writer never wrote. The first, flat.
  size_t unwritten = 0;
  size_t first_unwritten = 0;
};

// The arrays must have the same dtype and shape (std::logic_error otherwise: callers check).
ArrayDifference compare_arrays(const Tensor& left, const Tensor& right);

std::string element_text(DType dtype, const uint8_t* element);  // "17", "0.5 (0x3fe0000000000000)"
std::string index_text(const std::vector<size_t>& shape, size_t flat);

}  // namespace ozref
