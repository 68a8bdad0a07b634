#include "dist/block_operands.hpp"

#include "common/error.hpp"

namespace ozref::dist {
namespace {

std::unique_ptr<NpyBlockFile> open_matrix(const std::string& path, const Folder* folder) {
  auto file = folder ? std::make_unique<NpyBlockFile>(*folder, path) : std::make_unique<NpyBlockFile>(path);
  if (file->header().dtype == DType::C16)
    throw InputError(file->path() + ": a complex (c16) operand runs in one process, not under mpirun or srun");
  require_float_matrix(file->header().shape, file->header().dtype, file->path());
  return file;
}

// A block of a 2-D f8 or f4 file as FP64; an f8 one read straight into the matrix (no copy, and no
// buffer of its size to fault in).
Matrix<double> read_matrix(NpyBlockFile& file, size_t row0, size_t row1, size_t col0, size_t col1) {
  if (file.header().dtype != DType::F8) return matrix_from_npy(file.read_block(row0, row1, col0, col1), file.path());
  Matrix<double> m(row1 - row0, col1 - col0);
  file.read_block_into(row0, row1, col0, col1, reinterpret_cast<uint8_t*>(m.data.data()));
  return m;
}

std::string range_text(const Range& r) { return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")"; }

}  // namespace

OperandFiles open_operand_files(const std::string& a_path, const std::string& b_path, const Folder* folder) {
  OperandFiles f;
  f.a = open_matrix(a_path, folder);
  f.b = open_matrix(b_path, folder);
  const auto &sa = f.a->header().shape, &sb = f.b->header().shape;
  require_agreeing_shapes(sa[0], sa[1], f.a->path(), sb[0], sb[1], f.b->path());
  f.m = sa[0];
  f.k = sa[1];
  f.n = sb[1];
  return f;
}

Operands read_block_operands(OperandFiles& files, const Block& block) {
  const double operand_bytes = 8.0 * double(files.k) * double(block.rows.size() + block.cols.size());
  require_product_memory(block.rows.size(), block.cols.size(), 2 * operand_bytes,  // as read, then as FP64
                         "rows " + range_text(block.rows) + " x columns " + range_text(block.cols) + " of the product of A (" +
                             files.a->path() + ") and B (" + files.b->path() + ")");
  return {read_matrix(*files.a, block.rows.begin, block.rows.end, 0, files.k),
          read_matrix(*files.b, 0, files.k, block.cols.begin, block.cols.end)};
}

}  // namespace ozref::dist
