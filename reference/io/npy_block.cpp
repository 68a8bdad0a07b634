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

}  // namespace

NpyBlockFile::NpyBlockFile(const std::string& path) : file_(path), header_(header_of(file_)) {}

NpyArray NpyBlockFile::read_block(size_t row0, size_t row1, size_t col0, size_t col1) {
  const NpyHeader& h = header_;
  if (h.shape.size() != 2 || row0 > row1 || row1 > h.shape[0] || col0 > col1 || col1 > h.shape[1])
    throw std::invalid_argument("NpyBlockFile::read_block: the block is not inside a 2-D array");
  const size_t rows = row1 - row0, cols = col1 - col0, size = dtype_size(h.dtype);
  NpyArray out{.dtype = h.dtype, .shape = {rows, cols}, .data = std::vector<uint8_t>(rows * cols * size)};
  // A run is one row of the block (C order) or one column (Fortran order), contiguous in the file.
  const size_t runs = h.fortran ? cols : rows, run = h.fortran ? rows : cols;
  const size_t run_stride = h.fortran ? h.shape[0] : h.shape[1];
  const size_t first = h.fortran ? col0 * h.shape[0] + row0 : row0 * h.shape[1] + col0;
  std::vector<uint8_t> buffer(run * size);
  for (size_t r = 0; r < runs && run; ++r) {
    file_.read_at(reinterpret_cast<char*>(buffer.data()), buffer.size(), h.data_start + (first + r * run_stride) * size);
    for (size_t e = 0; e < run; ++e) {
      const size_t to = h.fortran ? e * cols + r : r * cols + e;
      std::memcpy(&out.data[to * size], &buffer[e * size], size);
    }
  }
  bytes_read_ += out.data.size();
  const size_t scalar = h.scalar_size();
  if (h.big_endian && scalar > 1)
    for (size_t i = 0; i < out.data.size() / scalar; ++i)
      std::reverse(out.data.begin() + i * scalar, out.data.begin() + (i + 1) * scalar);
  return out;
}

}  // namespace ozref
