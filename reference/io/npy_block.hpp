// Blocks of a 2-D .npy array read straight from the file, for a process that needs only some rows
// and columns of a matrix (a rank of a distributed `ozref exact`): the header is checked as
// read_npy checks it, then each block is read with offset reads of its contiguous runs (rows of a
// C-order file, columns of a Fortran-order one), so that the rest of the file is never read.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "io/input_file.hpp"
#include "io/npy.hpp"

namespace ozref {

// [begin, end) along one axis of an array.
struct AxisRange {
  size_t begin = 0, end = 0;
  size_t size() const { return end - begin; }
};

class NpyBlockFile {
 public:
  // InputError naming the path, with read_npy's words, when the file or its header is bad or the
  // file does not hold exactly the data the header describes.
  explicit NpyBlockFile(const std::string& path);
  // The file `name` of `folder`, opened relative to its handle (io/folder.hpp).
  NpyBlockFile(const Folder& folder, const std::string& name);

  const NpyHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  uint64_t bytes_read() const { return bytes_read_; }  // data bytes read so far (headers not counted)

  // Rows [row0, row1) and columns [col0, col1) of a 2-D array as a 2-D NpyArray in C order and
  // native byte order, as read_npy would give that part of the whole array.
  NpyArray read_block(size_t row0, size_t row1, size_t col0, size_t col1);
  // The same bytes into `out` ((row1 - row0) (col1 - col0) elements of the file's dtype), so that a
  // caller can read straight into its own storage.
  void read_block_into(size_t row0, size_t row1, size_t col0, size_t col1, uint8_t* out);
  // The box `box` (one range per axis) of an array of any rank into `out`, in C order and native
  // byte order: a 2-D box as read_block_into reads it, any other one run of consecutive elements
  // in the file at a time.
  void read_box_into(const std::vector<AxisRange>& box, uint8_t* out);
  // The whole array in C order and native byte order, a few MiB at a time: `visit(bytes,
  // elements, first)` for consecutive runs, `first` the flat index of the run's first element.
  void for_each_chunk(const std::function<void(const uint8_t* bytes, size_t elements, size_t first)>& visit);

 private:
  InputFile file_;
  NpyHeader header_;
  uint64_t bytes_read_ = 0;

  void read_c_order_box(const std::vector<size_t>& dims, const std::vector<AxisRange>& box, uint8_t* out);
};

}  // namespace ozref
