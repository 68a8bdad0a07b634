// Where an array of a block's scheme (a distributed verify-trace, docs/scale.md) lies in the
// whole product's array: its axes named m and n hold the block's rows and columns of C
// (BlockFrame), every other axis is whole. A block holds some of A's lines in whole (every rank
// of a grid row holds the same rows), so one rank speaks for each element: A's lines' arrays
// (an m axis, no n axis) the grid row's first rank, B's the grid column's, arrays of neither rank 0.
#pragma once
#include <cstdint>
#include <vector>

#include "io/npy_block.hpp"
#include "schemes/pipeline/block_frame.hpp"
#include "trace/tensor.hpp"

namespace ozref::schemes {

struct ArrayWindow {
  std::vector<AxisRange> box;       // one range per axis of the shape (squeezed axes left out)
  std::vector<size_t> whole_shape;  // the whole array's
  bool speaks_for = true;           // this block reports on these elements (see above)
  // Element `block_flat` (C order) of the block's array as an element of the whole array.
  uint64_t whole_flat(size_t block_flat) const;
};

ArrayWindow window_of(const ArraySpec& block_spec, const BlockFrame& frame);

}  // namespace ozref::schemes
