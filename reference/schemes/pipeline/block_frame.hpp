// Where a scheme run's block of C lies in the whole product (a distributed `ozref run`,
// docs/scale.md): the rank runs the scheme on its rows of A and columns of B, and its stages' checks
// name elements, and order their first violations, as one process running the whole product would.
// Each row of A is checked by one rank of its grid row and each column of B by one rank of its
// grid column, so that the ranks' violation counts add up to one process's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ozref::schemes {

// Where a violation lies in the order one process finds them: the batch, the check within the
// stage (in the order the stage makes them), and the element's position in the whole product's
// array in the order that check visits it.
struct ViolationKey {
  uint64_t batch = 0, check = 0, element = 0;
  auto operator<=>(const ViolationKey&) const = default;
};

struct BlockFrame {
  size_t row0 = 0, col0 = 0;  // the block's first row and column of C
  size_t m = 0, n = 0;        // the whole product's rows and columns; 0: the block is the whole product
  bool checks_a = true;       // this rank checks the arrays of A's rows (the first rank of its grid row)
  bool checks_b = true;       // ... and of B's columns (the first rank of its grid column)
  // Turns the maxima of the block's rows and columns of an m x n array into those of the whole
  // product's rows and columns (a distributed run: maxima over the grid row and grid column).
  // Null: the block is the whole product.
  std::function<void(std::vector<double>& row_max, std::vector<double>& col_max)> whole_line_maxima;

  size_t row(size_t i) const { return row0 + i; }
  size_t col(size_t j) const { return col0 + j; }
  size_t whole_m(size_t block_m) const { return m ? m : block_m; }
  size_t whole_n(size_t block_n) const { return n ? n : block_n; }
  // Element (i, j) of part t of a block of C (block_m x block_n), in the whole C, C order.
  uint64_t c_element(size_t t, size_t i, size_t j, size_t block_m, size_t block_n) const {
    return (uint64_t(t) * whole_m(block_m) + row(i)) * whole_n(block_n) + col(j);
  }
  // Element kk of line `line` of part t of the lines of A (rows) or of B (columns), k long.
  uint64_t line_element(size_t t, bool columns, size_t line, size_t kk, size_t k, size_t block_lines) const {
    const size_t whole = columns ? whole_n(block_lines) : whole_m(block_lines);
    return (uint64_t(t) * whole + (columns ? col(line) : row(line))) * k + kk;
  }
};

}  // namespace ozref::schemes
