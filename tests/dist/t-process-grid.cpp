// How distributed verbs cut C over ranks (dist/process_grid.hpp): the blocks of every grid cover
// each element of C exactly once, the parts of a dimension differ by at most one, and the grid
// reads the least of A and B per rank (checked against every factorisation, counted by hand).
#include "dist/process_grid.hpp"
#include "support.hpp"

#include <vector>

using namespace ozref::dist;

TEST_CASE("process grid: the blocks of every grid partition C, balanced to one row and one column", "[dist]") {
  ozref::test::CaseCount grids("process grid: (m, n, ranks) partitions checked");
  for (int ranks = 1; ranks <= 24; ++ranks)
    for (size_t m : {size_t{0}, size_t{1}, size_t{2}, size_t{5}, size_t{7}, size_t{37}})
      for (size_t n : {size_t{0}, size_t{1}, size_t{3}, size_t{29}}) {
        const ProcessGrid g = process_grid(ranks, m, n);
        REQUIRE(g.rows * g.cols == ranks);
        std::vector<int> owner(m * n, 0);
        size_t max_rows = 0, min_rows = m, max_cols = 0, min_cols = n;
        for (int r = 0; r < ranks; ++r) {
          const Block b = block_of(m, n, g, r);
          REQUIRE(b.rows.begin <= b.rows.end);
          REQUIRE(b.rows.end <= m);
          REQUIRE(b.cols.end <= n);
          for (size_t i = b.rows.begin; i < b.rows.end; ++i)
            for (size_t j = b.cols.begin; j < b.cols.end; ++j) ++owner[i * n + j];
          max_rows = std::max(max_rows, b.rows.size());
          min_rows = std::min(min_rows, b.rows.size());
          max_cols = std::max(max_cols, b.cols.size());
          min_cols = std::min(min_cols, b.cols.size());
        }
        for (int count : owner) REQUIRE(count == 1);
        CHECK(max_rows - min_rows <= 1);
        CHECK(max_cols - min_cols <= 1);
        ++grids;
      }
  grids.report(24 * 6 * 4);
}

TEST_CASE("process grid: the factorisation that reads the least per rank", "[dist]") {
  // (m / rows + n / cols) per rank, worked out by hand for each case.
  struct Case {
    int ranks;
    size_t m, n;
    int rows, cols;
  };
  for (const Case& c : {Case{1, 100, 100, 1, 1}, Case{2, 100, 100, 2, 1}, Case{3, 100, 100, 3, 1}, Case{4, 100, 100, 2, 2},
                        Case{6, 100, 100, 3, 2}, Case{16, 4096, 4096, 4, 4}, Case{4, 1000, 10, 4, 1}, Case{4, 10, 1000, 1, 4},
                        Case{8, 4096, 4096, 4, 2}, Case{12, 300, 400, 3, 4}, Case{7, 5, 5, 7, 1}}) {
    const ProcessGrid g = process_grid(c.ranks, c.m, c.n);
    INFO(c.ranks << " ranks, " << c.m << " x " << c.n);
    CHECK(g.rows == c.rows);
    CHECK(g.cols == c.cols);
  }
  CHECK_THROWS(process_grid(0, 1, 1));
}

TEST_CASE("process grid: parts of a dimension in order, larger ones first", "[dist]") {
  CHECK(part_of(10, 3, 0).begin == 0);
  CHECK(part_of(10, 3, 0).end == 4);
  CHECK(part_of(10, 3, 1).end == 7);
  CHECK(part_of(10, 3, 2).end == 10);
  CHECK(part_of(2, 4, 3).size() == 0);
  CHECK(part_of(2, 4, 1).size() == 1);
  CHECK_THROWS(part_of(5, 2, 2));
}
