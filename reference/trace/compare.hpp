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
std::string index_text(const std::vector<size_t>& shape, size_t flat);  // "[3, 2, 4]"
// The element `flat` of an array of `shape` named by the spec's axes (squeezed ones left out,
// matched from the front: a shape may drop trailing axes), in the convention of every stage's
// messages: "[modulus 251, i 2, j 4]". An axis's label for the index where it has labels, else
// its index letter (m: i, n: j, k: k; a numeric symbol: none; others the symbol) and the index.
// index_text where the spec has fewer axes than the shape.
std::string named_index(const ArraySpec& spec, const std::vector<size_t>& shape, size_t flat);

}  // namespace ozref
