// NumPy .npy files: v1, v2 and v3 headers, C or Fortran order, little- or big-endian, the dtypes
// f8 f4 i1 u1 i2 u2 i4 u4 i8 u8 c16 (complex: two f8, real first). Arrays are held in C order and native (little-endian) byte order.
// Malformed, truncated or oversized files are refused with an InputError naming file and problem.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/matrix.hpp"

namespace ozref {

class InputFile;
class Folder;

enum class DType { F8, F4, I1, U1, I2, U2, I4, U4, I8, U8, C16 };

size_t dtype_size(DType t);
std::string_view dtype_name(DType t);  // "f8", "i1", ...

struct NpyArray {
  DType dtype = DType::F8;
  std::vector<size_t> shape;
  std::vector<uint8_t> data;  // C order, little-endian
  size_t elements() const;
};

size_t element_count(const std::vector<size_t>& shape);

// What a .npy header says, and where in the file its data start.
struct NpyHeader {
  DType dtype = DType::F8;
  std::vector<size_t> shape;
  bool fortran = false, big_endian = false;
  size_t data_start = 0;
  size_t elements() const;
  size_t scalar_size() const;  // the unit of byte order: a c16 element is two f8 scalars
};

// Parses the header at the start of `bytes`, which need not hold the data; `name` is used in
// error messages. npy_header_bytes: how many bytes the header takes, given the file's first 12
// (or all of a shorter file).
NpyHeader parse_npy_header(std::string_view bytes, const std::string& name);
size_t npy_header_bytes(std::string_view start);
// InputError unless a file of `file_bytes` holds exactly the data the header describes.
void require_npy_data_size(const NpyHeader& h, uint64_t file_bytes, const std::string& name);
// The header of an open file, checked against the file's size (its data are not read).
NpyHeader read_npy_header(InputFile& file);

// Parses a whole file's bytes; `name` is used in error messages.
NpyArray parse_npy(std::string_view bytes, const std::string& name);
// A file's header, then its data straight into the array (bounded by the memory budget).
NpyArray read_npy(const std::string& path);
NpyArray read_npy(InputFile& file);
std::string serialize_npy(const NpyArray& array);  // v1 header (v2 when the header needs it)
void write_npy(const std::string& path, const NpyArray& array);  // atomic
void write_npy(std::shared_ptr<const Folder> folder, const std::string& name, const NpyArray& array);  // atomic, io/folder.hpp

// 2-D floating-point matrices (f8, or f4 widened exactly); anything else is an InputError.
void require_float_matrix(const std::vector<size_t>& shape, DType dtype, const std::string& name);
Matrix<double> matrix_from_npy(const NpyArray& array, const std::string& name);
// Element e (in C order) of an f8 or f4 array, widened exactly.
double float_element(const NpyArray& array, size_t e);
NpyArray npy_from_matrix(const Matrix<double>& m);
NpyArray npy_from_matrix(const Matrix<float>& m);

// 2-D complex matrices (c16) as their real and imaginary parts; anything else is an InputError.
struct ComplexMatrix {
  Matrix<double> re, im;
};
ComplexMatrix complex_from_npy(const NpyArray& array, const std::string& name);
NpyArray npy_from_complex(const Matrix<double>& re, const Matrix<double>& im);

}  // namespace ozref
