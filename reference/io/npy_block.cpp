#include "io/npy_block.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ozref {
namespace {

// Element e of each of g columns of `run` elements (one after the other in `from`) into row e of
// `to`, whose rows are `cols` elements apart. Size: the element's bytes when known at compile time
// (a fixed-size copy), else 0 and `size` says.
template <size_t Size>
void gather_columns(const char* from, size_t g, size_t run, size_t size, char* to, size_t cols) {
  const size_t bytes = Size ? Size : size;
  for (size_t e = 0; e < run; ++e)
    for (size_t r = 0; r < g; ++r) std::memcpy(to + (e * cols + r) * bytes, from + (r * run + e) * bytes, Size ? Size : size);
}

// The offset of `index` in a C-order array of extents `dims`.
size_t flat_of(const std::vector<size_t>& dims, const std::vector<size_t>& index) {
  size_t flat = 0;
  for (size_t d = 0; d < dims.size(); ++d) flat = flat * dims[d] + index[d];
  return flat;
}

// The next index of `box` in C order over axes [0, axes) (the others left as they are); false
// after the last.
bool next_index(std::vector<size_t>& index, const std::vector<AxisRange>& box, size_t axes) {
  for (size_t d = axes; d-- > 0;) {
    if (++index[d] < box[d].end) return true;
    index[d] = box[d].begin;
  }
  return false;
}

size_t box_elements(const std::vector<AxisRange>& box) {
  size_t n = 1;
  for (const AxisRange& r : box) n *= r.size();
  return n;
}

constexpr size_t kChunkBytes = size_t{8} << 20;  // what for_each_chunk holds at once

}  // namespace

NpyBlockFile::NpyBlockFile(const std::string& path) : file_(path), header_(read_npy_header(file_)) {}
NpyBlockFile::NpyBlockFile(const Folder& folder, const std::string& name) : file_(folder, name), header_(read_npy_header(file_)) {}

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

// The data as a C-order array of extents `dims` (a Fortran-order file's: its axes reversed): runs
// of the last partial axis and the whole axes after it, one read each, in order into `out`.
void NpyBlockFile::read_c_order_box(const std::vector<size_t>& dims, const std::vector<AxisRange>& box, uint8_t* out) {
  const size_t size = dtype_size(header_.dtype);
  size_t run = 1, q = dims.size();
  while (q > 0 && box[q - 1].begin == 0 && box[q - 1].end == dims[q - 1]) run *= dims[--q];
  if (q > 0) run *= box[--q].size();
  std::vector<size_t> index(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) index[d] = box[d].begin;
  do {
    file_.read_at(reinterpret_cast<char*>(out), run * size, header_.data_start + flat_of(dims, index) * size);
    out += run * size;
  } while (next_index(index, box, q));
}

void NpyBlockFile::read_box_into(const std::vector<AxisRange>& box, uint8_t* out) {
  const NpyHeader& h = header_;
  bool inside = box.size() == h.shape.size();
  for (size_t d = 0; inside && d < box.size(); ++d) inside = box[d].begin <= box[d].end && box[d].end <= h.shape[d];
  if (!inside) throw std::invalid_argument("NpyBlockFile::read_box_into: the box is not inside the array");
  if (box.size() == 2) return read_block_into(box[0].begin, box[0].end, box[1].begin, box[1].end, out);
  const size_t size = dtype_size(h.dtype), elements = box_elements(box);
  if (!elements) return;
  if (!h.fortran) {
    read_c_order_box(h.shape, box, out);
  } else {  // read in the file's order (the axes reversed), then each element to its C-order place
    const std::vector<size_t> dims(h.shape.rbegin(), h.shape.rend());
    const std::vector<AxisRange> reversed(box.rbegin(), box.rend());
    std::vector<uint8_t> file_order(elements * size);
    read_c_order_box(dims, reversed, file_order.data());
    std::vector<size_t> stride(box.size(), 1);  // of axis d of the box in the file's order
    for (size_t d = 1; d < box.size(); ++d) stride[d] = stride[d - 1] * box[d - 1].size();
    for (size_t v = 0; v < elements; ++v) {
      size_t rest = v, at = 0;
      for (size_t d = box.size(); d-- > 0;) at += rest % box[d].size() * stride[d], rest /= box[d].size();
      std::memcpy(out + v * size, file_order.data() + at * size, size);
    }
  }
  bytes_read_ += elements * size;
  const size_t scalar = h.scalar_size();
  if (h.big_endian && scalar > 1)
    for (size_t i = 0; i < elements * size / scalar; ++i) std::reverse(out + i * scalar, out + (i + 1) * scalar);
}

void NpyBlockFile::for_each_chunk(const std::function<void(const uint8_t*, size_t, size_t)>& visit) {
  const std::vector<size_t>& dims = header_.shape;
  const size_t size = dtype_size(header_.dtype);
  if (header_.elements() == 0) return;
  // Axis q is cut into ranges of `thick` indices, each axis before it taken one index at a time:
  // q the first axis one index of which (every axis after it) fits in kChunkBytes.
  size_t q = 0, inner = header_.elements();
  while (q < dims.size() && (inner /= dims[q]) * size > kChunkBytes) ++q;
  std::vector<AxisRange> box(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) box[d] = {0, d < q ? 1 : dims[d]};
  const size_t thick = q < dims.size() ? std::max<size_t>(1, kChunkBytes / (inner * size)) : 1;
  std::vector<uint8_t> buffer;
  size_t first = 0;
  for (bool more = true; more;) {
    for (size_t c = 0; c < (q < dims.size() ? dims[q] : 1); c += thick) {
      if (q < dims.size()) box[q] = {c, std::min(c + thick, dims[q])};
      buffer.resize(box_elements(box) * size);
      read_box_into(box, buffer.data());
      visit(buffer.data(), buffer.size() / size, first);
      first += buffer.size() / size;
    }
    more = false;
    for (size_t d = q; !more && d-- > 0;)
      if (++box[d].begin < dims[d]) box[d].end = box[d].begin + 1, more = true;
      else box[d] = {0, 1};
  }
}

}  // namespace ozref
