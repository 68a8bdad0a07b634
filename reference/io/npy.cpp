#include "io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>

#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"

namespace ozref {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct DTypeInfo {
  DType type;
  char kind;
  size_t size;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::F8, 'f', 8}, {DType::F4, 'f', 4}, {DType::I1, 'i', 1}, {DType::U1, 'u', 1},
    {DType::I2, 'i', 2}, {DType::U2, 'u', 2}, {DType::I4, 'i', 4}, {DType::U4, 'u', 4},
    {DType::I8, 'i', 8}, {DType::U8, 'u', 8}, {DType::C16, 'c', 16},
};

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw InputError(name + ": not a valid .npy file: " + what);
}

// A minimal reader for the header's Python dict literal: {'key': value, ...} where a value is a
// quoted string, True/False, or a tuple of non-negative integers.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

  void parse(std::string& descr, bool& fortran, std::vector<size_t>& shape) {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (true) {
      skip();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      skip();
      if (key == "descr") {
        descr = quoted();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran = boolean();
        have_order = true;
      } else if (key == "shape") {
        shape = tuple();
        have_shape = true;
      } else {
        fail(name_, "unexpected header key '" + key + "'");
      }
      (void)separator('}');
    }
    ++pos_;
    // NumPy evaluates the whole header as one Python literal: after the dict only the padding
    // (Python's white space) and comments may follow.
    while (pos_ < s_.size()) {
      if (s_[pos_] == '#') pos_ = std::min(s_.find('\n', pos_), s_.size());
      else if (std::string_view(" \t\n\r\f").find(s_[pos_]) != std::string_view::npos) ++pos_;
      else break;
    }
    if (pos_ != s_.size()) fail(name_, "header: bytes other than spaces after its dictionary, at offset " + std::to_string(pos_));
    if (!have_descr) fail(name_, "header has no 'descr'");
    if (!have_order) fail(name_, "header has no 'fortran_order'");
    if (!have_shape) fail(name_, "header has no 'shape'");
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() {
    if (pos_ >= s_.size()) fail(name_, "header ends inside its dictionary");
    return s_[pos_];
  }
  // After an entry: a comma, or the closing bracket (left for the caller), as Python requires.
  // Whether it was a comma.
  bool separator(char close) {
    skip();
    if (peek() == ',') return ++pos_, true;
    if (peek() != close) fail(name_, std::string("header: expected ',' or '") + close + "' at offset " + std::to_string(pos_));
    return false;
  }
  void expect(char c) {
    skip();
    if (peek() != c) fail(name_, std::string("header: expected '") + c + "' at offset " + std::to_string(pos_));
    ++pos_;
  }
  std::string quoted() {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') fail(name_, "header: expected a quoted string at offset " + std::to_string(pos_));
    const size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail(name_, "header: unterminated string");
    std::string out(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return out;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") { pos_ += 4; return true; }
    if (s_.substr(pos_, 5) == "False") { pos_ += 5; return false; }
    fail(name_, "header: 'fortran_order' must be True or False");
  }
  std::vector<size_t> tuple() {
    std::vector<size_t> out;
    expect('(');
    while (true) {
      skip();
      if (peek() == ')') { ++pos_; break; }
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        fail(name_, "header: 'shape' must hold non-negative integers");
      size_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        if (v > (size_t{1} << 48)) fail(name_, "header: a dimension in 'shape' is too large");
        v = v * 10 + static_cast<size_t>(s_[pos_++] - '0');
      }
      out.push_back(v);
      if (!separator(')') && out.size() == 1) fail(name_, "header: 'shape' (n) is a number, not a tuple; NumPy writes (n,)");
    }
    return out;
  }

  std::string_view s_;
  const std::string& name_;
  size_t pos_ = 0;
};

DTypeInfo parse_descr(const std::string& descr, bool& big_endian, const std::string& name) {
  if (descr.size() < 3) fail(name, "unsupported dtype '" + descr + "'");
  const char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    fail(name, "unsupported dtype '" + descr + "' (no byte-order mark)");
  big_endian = order == '>';
  size_t size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i]))) fail(name, "unsupported dtype '" + descr + "'");
    size = size * 10 + static_cast<size_t>(descr[i] - '0');
  }
  for (const auto& info : kDTypes)
    if (info.kind == descr[1] && info.size == size) return info;
  fail(name, "unsupported dtype '" + descr + "' (ozref reads f8 f4 i1 u1 i2 u2 i4 u4 i8 u8 c16)");
}

uint64_t read_le(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

}  // namespace

size_t dtype_size(DType t) {
  for (const auto& info : kDTypes)
    if (info.type == t) return info.size;
  return 0;
}

std::string_view dtype_name(DType t) {
  static const char* names[] = {"f8", "f4", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "c16"};
  return names[static_cast<int>(t)];
}

size_t element_count(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

size_t NpyArray::elements() const { return element_count(shape); }

size_t NpyHeader::elements() const { return element_count(shape); }

size_t NpyHeader::scalar_size() const { return dtype == DType::C16 ? 8 : dtype_size(dtype); }

NpyHeader parse_npy_header(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic) fail(name, "missing the \\x93NUMPY magic");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = read_le(bytes.data() + 8, 2);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(name, "truncated header");
    header_len = read_le(bytes.data() + 8, 4);
    header_start = 12;
  } else {
    fail(name, "unsupported format version " + std::to_string(major));
  }
  if (bytes.size() < header_start + header_len) fail(name, "truncated header");
  std::string descr;
  NpyHeader h;
  HeaderParser(bytes.substr(header_start, header_len), name).parse(descr, h.fortran, h.shape);
  h.dtype = parse_descr(descr, h.big_endian, name).type;
  size_t count = 1;
  for (size_t d : h.shape) {
    if (d != 0 && count > (size_t{1} << 40) / d) fail(name, "the array is too large");
    count *= d;
  }
  h.data_start = header_start + header_len;
  return h;
}

size_t npy_header_bytes(std::string_view start) {
  if (start.size() < 10 || start.substr(0, 6) != kMagic) return 10;  // parse_npy_header says what is wrong
  if (start[6] == 1) return 10 + read_le(start.data() + 8, 2);
  if (start.size() < 12) return 12;
  return 12 + read_le(start.data() + 8, 4);
}

void require_npy_data_size(const NpyHeader& h, uint64_t file_bytes, const std::string& name) {
  const uint64_t expected = uint64_t{h.elements()} * dtype_size(h.dtype);
  const uint64_t available = file_bytes - h.data_start;
  if (available < expected)
    fail(name, "truncated data: shape needs " + std::to_string(expected) + " bytes, file has " +
                   std::to_string(available));
  if (available > expected)
    fail(name, std::to_string(available - expected) + " bytes follow the data the shape describes");
}

namespace {
// The data as the header holds them into C order and native byte order, in place.
void to_native_c_order(NpyArray& out, const NpyHeader& h) {
  // Byte order applies to each scalar: a complex element is two of them.
  const size_t scalar = h.scalar_size(), size = dtype_size(h.dtype), count = h.elements();
  if (h.big_endian && scalar > 1)
    for (size_t i = 0; i < out.data.size() / scalar; ++i)
      std::reverse(out.data.begin() + i * scalar, out.data.begin() + (i + 1) * scalar);
  if (h.fortran && out.shape.size() > 1) {  // reorder to C order
    std::vector<uint8_t> c_order(out.data.size());
    const size_t nd = out.shape.size();
    std::vector<size_t> index(nd, 0);
    for (size_t f = 0; f < count; ++f) {  // f walks Fortran order: first index fastest
      size_t c = 0;
      for (size_t d = 0; d < nd; ++d) c = c * out.shape[d] + index[d];
      std::memcpy(&c_order[c * size], &out.data[f * size], size);
      for (size_t d = 0; d < nd && ++index[d] == out.shape[d]; ++d) index[d] = 0;
    }
    out.data.swap(c_order);
  }
}
}  // namespace

NpyArray parse_npy(std::string_view bytes, const std::string& name) {
  const NpyHeader h = parse_npy_header(bytes, name);
  require_npy_data_size(h, bytes.size(), name);
  NpyArray out;
  out.dtype = h.dtype;
  out.shape = h.shape;
  out.data.assign(bytes.begin() + h.data_start, bytes.end());
  to_native_c_order(out, h);
  return out;
}

NpyHeader read_npy_header(InputFile& file) {
  std::string start(static_cast<size_t>(std::min<uint64_t>(file.size(), 12)), '\0');
  file.read_at(start.data(), start.size(), 0);
  std::string bytes(static_cast<size_t>(std::min<uint64_t>(file.size(), npy_header_bytes(start))), '\0');
  file.read_at(bytes.data(), bytes.size(), 0);
  const NpyHeader h = parse_npy_header(bytes, file.path());
  require_npy_data_size(h, file.size(), file.path());
  return h;
}

NpyArray read_npy(const std::string& path) {
  InputFile file(path);
  return read_npy(file);
}

// No copy of the whole file: the data are read into the array itself.
NpyArray read_npy(InputFile& file) {
  require_file_fits(file, memory_budget());
  const NpyHeader h = read_npy_header(file);
  NpyArray out;
  out.dtype = h.dtype;
  out.shape = h.shape;
  out.data.resize(h.elements() * dtype_size(h.dtype));
  file.read_at(reinterpret_cast<char*>(out.data.data()), out.data.size(), h.data_start);
  to_native_c_order(out, h);
  return out;
}

std::string serialize_npy(const NpyArray& array) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(array.shape[i]);
  shape += array.shape.size() == 1 ? ",)" : ")";
  const char order = dtype_size(array.dtype) == 1 ? '|' : '<';
  std::string dict = "{'descr': '" + std::string(1, order) + std::string(dtype_name(array.dtype)) +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a newline so that the data starts on a 64-byte boundary.
  size_t prefix = 10;
  size_t total = prefix + dict.size() + 1;
  int major = 1;
  if (total + 63 > 65535 + 10) {
    major = 2;
    prefix = 12;
    total = prefix + dict.size() + 1;
  }
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += static_cast<char>(major);
  out += '\0';
  const size_t len = dict.size();
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out += static_cast<char>((len >> (8 * i)) & 0xFF);
  out += dict;
  out.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  return out;
}

void write_npy(const std::string& path, const NpyArray& array) {
  write_file_atomically(path, serialize_npy(array));
}

void write_npy(std::shared_ptr<const Folder> folder, const std::string& name, const NpyArray& array) {
  write_file_atomically(std::move(folder), name, serialize_npy(array));
}

void require_float_matrix(const std::vector<size_t>& shape, DType dtype, const std::string& name) {
  if (shape.size() != 2)
    throw InputError(name + ": expected a 2-D matrix, got " + std::to_string(shape.size()) + " dimensions");
  if (dtype != DType::F8 && dtype != DType::F4)
    throw InputError(name + ": expected dtype f8 or f4, got " + std::string(dtype_name(dtype)));
}

Matrix<double> matrix_from_npy(const NpyArray& array, const std::string& name) {
  require_float_matrix(array.shape, array.dtype, name);
  Matrix<double> m(array.shape[0], array.shape[1]);
  if (array.dtype == DType::F8) {
    // std::copy, not memcpy: an empty array's data() may be null, which memcpy must not be given
    std::copy(array.data.begin(), array.data.end(), reinterpret_cast<uint8_t*>(m.data.data()));
  } else if (array.dtype == DType::F4) {
    for (size_t i = 0; i < m.size(); ++i) m.data[i] = float_element(array, i);
  }
  return m;
}

double float_element(const NpyArray& array, size_t e) {
  if (array.dtype == DType::F8) {
    double d;
    std::memcpy(&d, &array.data[8 * e], 8);
    return d;
  }
  float f;
  std::memcpy(&f, &array.data[4 * e], 4);
  return f;  // exact widening
}

namespace {
template <typename T>
NpyArray npy_from(const Matrix<T>& m, DType t) {
  NpyArray a;
  a.dtype = t;
  a.shape = {m.rows, m.cols};
  a.data.resize(m.size() * sizeof(T));
  std::copy_n(reinterpret_cast<const uint8_t*>(m.data.data()), a.data.size(), a.data.begin());
  return a;
}
}  // namespace

NpyArray npy_from_matrix(const Matrix<double>& m) { return npy_from(m, DType::F8); }

ComplexMatrix complex_from_npy(const NpyArray& array, const std::string& name) {
  if (array.shape.size() != 2)
    throw InputError(name + ": expected a 2-D matrix, got " + std::to_string(array.shape.size()) + " dimensions");
  if (array.dtype != DType::C16) throw InputError(name + ": expected dtype c16 (complex128), got " + std::string(dtype_name(array.dtype)));
  ComplexMatrix c{Matrix<double>(array.shape[0], array.shape[1]), Matrix<double>(array.shape[0], array.shape[1])};
  for (size_t i = 0; i < c.re.size(); ++i) {
    std::memcpy(&c.re.data[i], &array.data[16 * i], 8);
    std::memcpy(&c.im.data[i], &array.data[16 * i + 8], 8);
  }
  return c;
}

NpyArray npy_from_complex(const Matrix<double>& re, const Matrix<double>& im) {
  NpyArray a;
  a.dtype = DType::C16;
  a.shape = {re.rows, re.cols};
  a.data.resize(16 * re.size());
  for (size_t i = 0; i < re.size(); ++i) {
    std::memcpy(&a.data[16 * i], &re.data[i], 8);
    std::memcpy(&a.data[16 * i + 8], &im.data[i], 8);
  }
  return a;
}
NpyArray npy_from_matrix(const Matrix<float>& m) { return npy_from(m, DType::F4); }

}  // namespace ozref
