// One line-protocol query (docs/infer.md, "The protocol") as one tile of the probe kernels
// (mma_kernels.cuh): the query's row of A at row 0 and its column of B at column 0, every other
// element zero, its C at (0, 0). An MMA's output element depends only on its row of A, its column
// of B and its C, so D at (0, 0) is the answer. Plain C++: the tests build it with a host stand-in
// for the GPU (tests/infer/t-gpu-query-tile.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mma_kernels.cuh"

namespace probe {

// The probe op whose PTX is `ptx` (as an MMA trace record names it), or -1.
inline int op_named(const std::string& ptx) {
  for (int op = 0; op < kOpCount; ++op)
    if (ptx == op_info(op).ptx) return op;
  return -1;
}

// The bytes of one row of A (one column of B) of op.
inline size_t row_bytes(int op) { return size_t(op_info(op).k) * op_info(op).element_bytes; }

struct QueryTile {
  std::vector<uint8_t> a, b;  // m x k and n x k elements, each little-endian in memory
  std::vector<uint32_t> c;    // m x n
  static constexpr size_t kAnswer = 0;  // the index of the answer in D
};

// a and b: row_bytes(op) bytes each, as a trace record holds them (each element's bytes
// big-endian); the caller checks the sizes.
inline QueryTile query_tile(int op, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, uint32_t c) {
  const OpInfo& info = op_info(op);
  const size_t eb = size_t(info.element_bytes), row = row_bytes(op);
  QueryTile t{std::vector<uint8_t>(size_t(info.m) * row, 0), std::vector<uint8_t>(size_t(info.n) * row, 0),
              std::vector<uint32_t>(size_t(info.m) * info.n, 0)};
  for (size_t e = 0; e < size_t(info.k); ++e)
    for (size_t i = 0; i < eb; ++i) {
      t.a[e * eb + i] = a[e * eb + eb - 1 - i];
      t.b[e * eb + i] = b[e * eb + eb - 1 - i];
    }
  t.c[QueryTile::kAnswer] = c;
  return t;
}

}  // namespace probe
