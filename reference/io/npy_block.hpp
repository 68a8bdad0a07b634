// Blocks of a 2-D .npy array read straight from the file, for a process that needs only some rows
// and columns of a matrix (a rank of a distributed `ozref exact`): the header is checked as
// read_npy checks it, then each block is read with offset reads of its contiguous runs (rows of a
// C-order file, columns of a Fortran-order one), so that the rest of the file is never read.
#pragma once
#include <cstddef>
#include <string>

#include "io/input_file.hpp"
#include "io/npy.hpp"

namespace ozref {

class NpyBlockFile {
 public:
  // InputError naming the path, with read_npy's words, when the file or its header is bad or the
  // file does not hold exactly the data the header describes.
  explicit NpyBlockFile(const std::string& path);

  const NpyHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  uint64_t bytes_read() const { return bytes_read_; }  // data bytes read so far (headers not counted)

  // Rows [row0, row1) and columns [col0, col1) of a 2-D array as a 2-D NpyArray in C order and
  // native byte order, as read_npy would give that part of the whole array.
  NpyArray read_block(size_t row0, size_t row1, size_t col0, size_t col1);
  // The same bytes into `out` ((row1 - row0) (col1 - col0) elements of the file's dtype), so that a
  // caller can read straight into its own storage.
  void read_block_into(size_t row0, size_t row1, size_t col0, size_t col1, uint8_t* out);

 private:
  InputFile file_;
  NpyHeader header_;
  uint64_t bytes_read_ = 0;
};

}  // namespace ozref
