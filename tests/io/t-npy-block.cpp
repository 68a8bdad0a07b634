// Blocks read straight from .npy files (io/npy_block.hpp), against the whole file as read_npy
// reads it: every block of small matrices in C and Fortran order, little- and big-endian, f8 and
// f4, the bytes read, and malformed files refused with read_npy's own words.
#include <array>
#include <cstring>
#include <functional>
#include <tuple>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "io/npy_block.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

namespace {

// The file's bytes for a rows x cols matrix of `size`-byte elements held in C order in `c_order`:
// written here element by element in the requested layout, not through the code under test.
std::string npy_file(DType t, size_t rows, size_t cols, const std::vector<uint8_t>& c_order, bool fortran, bool big_endian) {
  const size_t size = dtype_size(t);
  std::string dict = std::string("{'descr': '") + (big_endian ? ">" : "<") + std::string(dtype_name(t)) +
                     "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + std::to_string(rows) + ", " +
                     std::to_string(cols) + "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>(dict.size() >> 8);
  out += dict;
  for (size_t s = 0; s < rows * cols; ++s) {
    const size_t i = fortran ? s % rows : s / cols, j = fortran ? s / rows : s % cols;
    const uint8_t* e = &c_order[(i * cols + j) * size];
    for (size_t b = 0; b < size; ++b) out += static_cast<char>(e[big_endian ? size - 1 - b : b]);
  }
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("npy block: every block of C- and Fortran-order, little- and big-endian files equals that part of read_npy's array", "[io]") {
  test::Workspace ws;
  Rng rng(test::seed());
  test::CaseCount blocks("npy block: blocks compared");
  for (DType t : {DType::F8, DType::F4}) {
    const size_t rows = 5, cols = 4, size = dtype_size(t);
    std::vector<uint8_t> c_order(rows * cols * size);
    for (uint8_t& byte : c_order) byte = static_cast<uint8_t>(rng.next());
    for (bool fortran : {false, true})
      for (bool big_endian : {false, true}) {
        const std::string path = ws.file("m.npy", npy_file(t, rows, cols, c_order, fortran, big_endian));
        const NpyArray whole = read_npy(path);
        REQUIRE(whole.data == c_order);  // the file says what this test meant it to say
        NpyBlockFile file(path);
        uint64_t expected_bytes = 0;
        for (size_t r0 = 0; r0 <= rows; ++r0)
          for (size_t r1 = r0; r1 <= rows; ++r1)
            for (size_t c0 = 0; c0 <= cols; ++c0)
              for (size_t c1 = c0; c1 <= cols; ++c1) {
                const NpyArray block = file.read_block(r0, r1, c0, c1);
                REQUIRE(block.dtype == t);
                REQUIRE(block.shape == std::vector<size_t>{r1 - r0, c1 - c0});
                for (size_t i = r0; i < r1 && c1 > c0; ++i)  // an empty block has no bytes to point at
                  REQUIRE(std::memcmp(&block.data[(i - r0) * (c1 - c0) * size], &whole.data[(i * cols + c0) * size], (c1 - c0) * size) == 0);
                expected_bytes += (r1 - r0) * (c1 - c0) * size;
                ++blocks;
              }
        CHECK(file.bytes_read() == expected_bytes);  // a block reads its own elements, no more
      }
  }
  blocks.report(2 * 4 * 21 * 15);  // 21 row ranges, 15 column ranges per file
}

// Blocks of whole columns of a Fortran-order file are read up to 64 columns at a time, fewer when
// the columns are long (8 MiB at most): blocks across those groups' edges, of files whose columns
// make groups of 64 (3 rows) and of 29 (35,000 rows of f8).
TEST_CASE("npy block: Fortran-order blocks across the groups of columns read at once", "[io]") {
  test::Workspace ws;
  Rng rng(test::seed());
  test::CaseCount blocks("npy block: long and wide Fortran blocks");
  for (const auto& [t, rows, cols] : {std::tuple{DType::F8, size_t{3}, size_t{150}}, std::tuple{DType::F4, size_t{3}, size_t{150}},
                                      std::tuple{DType::F8, size_t{35000}, size_t{70}}}) {
    const size_t size = dtype_size(t);
    std::vector<uint8_t> c_order(rows * cols * size);
    for (uint8_t& byte : c_order) byte = static_cast<uint8_t>(rng.next());
    const std::string path = ws.file("w.npy", npy_file(t, rows, cols, c_order, true, false));
    NpyBlockFile file(path);
    for (const auto& [r0, r1, c0, c1] : {std::array<size_t, 4>{0, rows, 0, cols}, {0, rows, 1, cols - 1}, {0, rows, 29, 31},
                                         {1, rows, 0, cols}, {0, rows - 1, 63, cols}, {1, 2, 0, cols}}) {
      const NpyArray block = file.read_block(r0, r1, c0, c1);
      bool same = block.shape == std::vector<size_t>{r1 - r0, c1 - c0};
      for (size_t i = r0; i < r1 && same; ++i)
        same = std::memcmp(&block.data[(i - r0) * (c1 - c0) * size], &c_order[(i * cols + c0) * size], (c1 - c0) * size) == 0;
      INFO(dtype_name(t) << " " << rows << "x" << cols << ": rows [" << r0 << ", " << r1 << ") x columns [" << c0 << ", " << c1 << ")");
      CHECK(same);
      ++blocks;
    }
  }
  blocks.report(3 * 6);
}

TEST_CASE("npy block: malformed files are refused with read_npy's message", "[io]") {
  test::Workspace ws;
  const std::vector<uint8_t> data(4 * 8, 0x11);
  const std::string good = npy_file(DType::F8, 2, 2, data, false, false);
  const std::string header_only = good.substr(0, good.size() - data.size());
  const std::vector<std::string> cases = {
      "", "hello", good.substr(0, 11), good.substr(0, 20), good.substr(0, good.size() - 8), good + "xx",
      header_only.substr(0, 20) + std::string(header_only.size() - 20, ' '),  // the dictionary cut
      std::string("\x93NUMPY\x04\x00", 8) + good.substr(8),                  // version 4
  };
  test::CaseCount refused("npy block: malformed files");
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string path = ws.file("bad" + std::to_string(i) + ".npy", cases[i]);
    const std::string expected = error_of([&] { read_npy(path); });
    INFO("case " << i << ": " << expected);
    REQUIRE(expected != "(no error)");
    CHECK(error_of([&] { NpyBlockFile file(path); }) == expected);
    ++refused;
  }
  CHECK(error_of([&] { NpyBlockFile file(ws.path("absent.npy")); }) == error_of([&] { read_npy(ws.path("absent.npy")); }));
  refused.report(cases.size());
}
