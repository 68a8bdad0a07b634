#include "io/npy_block.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ozref {
namespace {

NpyHeader header_of(InputFile& file) {
  std::string start(static_cast<size_t>(std::min<uint64_t>(file.size(), 12)), '\0');
  file.read_at(start.data(), start.size(), 0);
  std::string bytes(static_cast<size_t>(std::min<uint64_t>(file.size(), npy_header_bytes(start))), '\0');
  file.read_at(bytes.data(), bytes.size(), 0);
  const NpyHeader h = parse_npy_header(bytes, file.path());
  require_npy_data_size(h, file.size(), file.path());
  return h;
}

// Element e of each of g columns of `run` elements (one after the other in `from`) into row e of
// `to`, whose rows are `cols` elements apart. Size: the element's bytes when known at compile time
// (a fixed-size copy), else 0 and `size` says.
template <size_t Size>
void gather_columns(const char* from, size_t g, size_t run, size_t size, char* to, size_t cols) {
  const size_t bytes = Size ? Size : size;
  for (size_t e = 0; e < run; ++e)
    for (size_t r = 0; r < g; ++r) std::memcpy(to + (e * cols + r) * bytes, from + (r * run + e) * bytes, Size ? Size : size);
}

}  // namespace

NpyBlockFile::NpyBlockFile(const std::string& path) : file_(path), header_(header_of(file_)) {}

NpyArray NpyBlockFile::read_block(size_t row0, size_t row1, size_t col0, size_t col1) {
  const NpyHeader& h = header_;
  if (h.shape.size() != 2 || row0 > row1 || row1 > h.shape[0] || col0 > col1 || col1 > h.shape[1])
    throw std::invalid_argument("NpyBlockFile::read_block: the block is not inside a 2-D array");
  const size_t rows = row1 - row0, cols = col1 - col0, size = dtype_size(h.dtype);
  NpyArray out{.dtype = h.dtype, .shape = {rows, cols}, .data = std::vector<uint8_t>(rows * cols * size)};
  read_block_into(row0, row1, col0, col1, out.data.data());
  return out;
}

void NpyBlockFile::read_block_into(size_t row0, size_t row1, size_t col0, size_t col1, uint8_t* out) {
  const NpyHeader& h = header_;
  if (h.shape.size() != 2 || row0 > row1 || row1 > h.shape[0] || col0 > col1 || col1 > h.shape[1])
    throw std::invalid_argument("NpyBlockFile::read_block: the block is not inside a 2-D array");
  const size_t rows = row1 - row0, cols = col1 - col0, size = dtype_size(h.dtype), bytes = rows * cols * size;
  // A run is one row of the block (C order) or one column (Fortran order), contiguous in the file;
  // runs that span whole rows (columns) follow each other there and are read together.
  const size_t runs = h.fortran ? cols : rows, run = h.fortran ? rows : cols;
  const size_t run_stride = h.fortran ? h.shape[0] : h.shape[1];
  const size_t first = h.fortran ? col0 * h.shape[0] + row0 : row0 * h.shape[1] + col0;
  const uint64_t start = h.data_start + first * size;
  char* to = reinterpret_cast<char*>(out);
  if (!run) {
    // nothing to read
  } else if (!h.fortran && run == run_stride) {  // the block is one contiguous range, in its own order
    file_.read_at(to, bytes, start);
  } else if (!h.fortran) {  // each row straight into its place
    for (size_t r = 0; r < runs; ++r) file_.read_at(to + r * run * size, run * size, start + r * run_stride * size);
  } else {
    // Columns, up to 64 at a time (one read when they are whole columns), then gathered row by row,
    // so that the writes go in order and the columns being read stay in cache.
    const size_t group = std::clamp<size_t>((size_t{8} << 20) / (run * size), 1, 64);
    std::vector<char> buffer(group * run * size);
    for (size_t r0 = 0; r0 < runs; r0 += group) {
      const size_t g = std::min(group, runs - r0);
      if (run == run_stride) file_.read_at(buffer.data(), g * run * size, start + r0 * run_stride * size);
      else
        for (size_t r = 0; r < g; ++r) file_.read_at(buffer.data() + r * run * size, run * size, start + (r0 + r) * run_stride * size);
      if (size == 8) gather_columns<8>(buffer.data(), g, run, size, to + r0 * size, cols);
      else if (size == 4) gather_columns<4>(buffer.data(), g, run, size, to + r0 * size, cols);
      else gather_columns<0>(buffer.data(), g, run, size, to + r0 * size, cols);
    }
  }
  bytes_read_ += bytes;
  const size_t scalar = h.scalar_size();
  if (h.big_endian && scalar > 1)
    for (size_t i = 0; i < bytes / scalar; ++i) std::reverse(out + i * scalar, out + (i + 1) * scalar);
}

}  // namespace ozref
