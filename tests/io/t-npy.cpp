// .npy reading and writing: round trips of every dtype, v1/v2/v3 headers, Fortran order,
// big-endian data, and each kind of malformed file refused with a message naming the problem.
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "io/npy.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
std::string header_file(int major, const std::string& dict, const std::string& data) {
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  std::string h = dict;
  const size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + h.size() + 1) % 64) h += ' ';
  h += '\n';
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xFF);
  return out + h + data;
}

std::string le_doubles(std::initializer_list<double> v) {
  std::string s;
  for (double d : v) s.append(reinterpret_cast<const char*>(&d), 8);
  return s;
}

void require_error(const std::string& bytes, const std::string& needle) {
  try {
    parse_npy(bytes, "case.npy");
    FAIL("accepted a malformed file; expected: " << needle);
  } catch (const InputError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("case.npy") != std::string::npos);
    CHECK(what.find(needle) != std::string::npos);
  }
}
}  // namespace

TEST_CASE("npy: every dtype round-trips through serialize and parse", "[io]") {
  test::CaseCount cases("dtype round trips");
  for (DType t : {DType::F8, DType::F4, DType::I1, DType::U1, DType::I2, DType::U2, DType::I4,
                  DType::U4, DType::I8, DType::U8}) {
    NpyArray a;
    a.dtype = t;
    a.shape = {3, 5};
    a.data.resize(15 * dtype_size(t));
    for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = static_cast<uint8_t>(i * 37 + 11);
    const NpyArray b = parse_npy(serialize_npy(a), "roundtrip");
    REQUIRE(b.dtype == t);
    REQUIRE(b.shape == a.shape);
    REQUIRE(b.data == a.data);
    ++cases;
  }
  for (std::vector<size_t> shape : {std::vector<size_t>{}, {7}, {2, 3, 4}, {0, 3}}) {
    NpyArray a;
    a.dtype = DType::I2;
    a.shape = shape;
    a.data.resize(a.elements() * 2, 0xAB);
    REQUIRE(parse_npy(serialize_npy(a), "shape").shape == shape);
    ++cases;
  }
  cases.report(14);
}

TEST_CASE("npy: v2 and v3 headers, Fortran order and big-endian data are read", "[io]") {
  const std::string data = le_doubles({1, 2, 3, 4, 5, 6});
  for (int major : {1, 2, 3}) {
    const NpyArray a = parse_npy(header_file(major, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", data), "v");
    REQUIRE(a.shape == std::vector<size_t>{2, 3});
    const Matrix<double> m = matrix_from_npy(a, "v");
    CHECK(m(1, 0) == 4);
  }
  // Fortran order: memory holds columns, so (0,1) is the third stored value.
  const NpyArray f = parse_npy(header_file(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", data), "f");
  const Matrix<double> mf = matrix_from_npy(f, "f");
  CHECK(mf(0, 0) == 1);
  CHECK(mf(1, 0) == 2);
  CHECK(mf(0, 1) == 3);
  CHECK(mf(1, 2) == 6);
  std::string be;
  for (double d : {1.5, -2.0}) {
    char b[8];
    std::memcpy(b, &d, 8);
    for (int i = 7; i >= 0; --i) be += b[i];
  }
  const Matrix<double> mb = matrix_from_npy(parse_npy(header_file(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1, 2), }", be), "be"), "be");
  CHECK(mb(0, 0) == 1.5);
  CHECK(mb(0, 1) == -2.0);
  // f4 widens exactly.
  float fl[2] = {0.1f, -3.0f};
  const Matrix<double> m4 = matrix_from_npy(parse_npy(header_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", std::string(reinterpret_cast<char*>(fl), 8)), "f4"), "f4");
  CHECK(m4(0, 0) == static_cast<double>(0.1f));
  // c16: two f8 per element, real first; big-endian swaps each of them, not the pair.
  std::string c16le, c16be;
  for (double d : {1.5, -2.0, 0.25, 8.0}) {
    char b[8];
    std::memcpy(b, &d, 8);
    c16le.append(b, 8);
    for (int i = 7; i >= 0; --i) c16be += b[i];
  }
  for (const auto& [descr, bytes] : {std::pair{"<c16", c16le}, std::pair{">c16", c16be}}) {
    const ComplexMatrix c = complex_from_npy(
        parse_npy(header_file(1, "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (1, 2), }", bytes), "c"), "c");
    CHECK(c.re(0, 0) == 1.5);
    CHECK(c.im(0, 0) == -2.0);
    CHECK(c.re(0, 1) == 0.25);
    CHECK(c.im(0, 1) == 8.0);
  }
  const NpyArray round = parse_npy(serialize_npy(npy_from_complex(Matrix<double>(1, 1, 3.0), Matrix<double>(1, 1, -4.0))), "r");
  CHECK(complex_from_npy(round, "r").im(0, 0) == -4.0);
  CHECK_THROWS_WITH(matrix_from_npy(round, "r"), Catch::Contains("expected dtype f8 or f4, got c16"));
  CHECK_THROWS_WITH(complex_from_npy(npy_from_matrix(Matrix<double>(1, 1, 3.0)), "x"), Catch::Contains("expected dtype c16"));
}

TEST_CASE("npy: empty matrices (a dimension of 0) convert both ways", "[io]") {
  // Found by fuzz_cli under UBSan: an empty array's data() is null, which memcpy must not be given.
  for (const std::vector<size_t>& shape : {std::vector<size_t>{3, 0}, {0, 3}, {0, 0}}) {
    NpyArray a;
    a.dtype = DType::F8;
    a.shape = shape;
    const Matrix<double> m = matrix_from_npy(a, "empty");
    CHECK(m.rows == shape[0]);
    CHECK(m.cols == shape[1]);
    CHECK(npy_from_matrix(m).shape == shape);
    CHECK(npy_from_matrix(Matrix<float>(shape[0], shape[1])).data.empty());
  }
}

TEST_CASE("npy: malformed files are refused, naming the file and the problem", "[io]") {
  const std::string ok_dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";
  const std::string data = le_doubles({1, 2, 3, 4});
  require_error("hello", "magic");
  require_error(header_file(1, ok_dict, data).substr(0, 20), "truncated header");
  require_error(header_file(1, ok_dict, data.substr(0, 24)), "truncated data");
  require_error(header_file(1, ok_dict, data + "xx"), "bytes follow the data");
  require_error(header_file(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2, 2), }", data), "unsupported dtype");
  require_error(header_file(1, "{'descr': '<f8', 'shape': (2, 2), }", data), "fortran_order");
  require_error(header_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, -2), }", data), "non-negative");
  require_error(header_file(4, ok_dict, data), "version");
  require_error(header_file(1, "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2, 2), }", data), "True or False");
  require_error(header_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2)", data), "header");
  // A 1-D array or an integer dtype is not a matrix.
  try {
    matrix_from_npy(parse_npy(header_file(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", std::string(16, '\0')), "ints"), "ints");
    FAIL("accepted an integer matrix as floating point");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("f8 or f4") != std::string::npos);
  }
}

TEST_CASE("npy: writing is atomic and leaves no temporary file", "[io]") {
  const auto dir = std::filesystem::temp_directory_path() / ("ozref-npy-" + std::to_string(test::seed()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.npy").string();
  Matrix<double> m(2, 2, 1.25);
  write_npy(path, npy_from_matrix(m));
  CHECK(matrix_from_npy(read_npy(path), path)(1, 1) == 1.25);
  size_t files = 0;
  for (auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++files;
  }
  CHECK(files == 1);
  CHECK_THROWS_AS(write_npy((dir / "no-such-dir" / "x.npy").string(), npy_from_matrix(m)), InputError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("npy: the header is one Python literal, as NumPy reads it: junk after the dict is refused", "[io]") {
  // Each header (padded to 64 bytes and ended by '\n' by header_file) with np.load's verdict,
  // recorded from NumPy 1.24: true for accepted.
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
  const std::pair<std::string, bool> numpy[] = {
      {dict, true},
      {dict + "  \t\r\f", true},
      {dict + "# a comment", true},
      {dict + "junk", false},
      {dict + "\v", false},
      {dict + "}", false},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2), }", false},  // (2) is the number 2, not a tuple
      {"{'descr': '<f8', 'fortran_order': False 'shape': (2,), }", false},  // a comma missing between entries
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1 2), }", false},
  };
  const std::string data = le_doubles({1, 2});
  test::CaseCount cases("npy headers judged as NumPy judges them");
  for (const auto& [header, accepted] : numpy) {
    INFO(header);
    if (accepted) CHECK(parse_npy(header_file(1, header, data), "case.npy").shape == std::vector<size_t>{2});
    else CHECK_THROWS_AS(parse_npy(header_file(1, header, data), "case.npy"), InputError);
    ++cases;
  }
  require_error(header_file(1, dict + "junk", data), "bytes other than spaces after its dictionary");
  cases.report(std::size(numpy));
}
