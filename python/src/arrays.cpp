#include "arrays.hpp"

#include <complex>

#include "ozref/error.hpp"

namespace ozref::python {
namespace py = pybind11;

namespace {

// NumPy's kind and item size to the .npy dtype the library reads; false for any other.
bool dtype_of(char kind, py::ssize_t size, api::Dtype& out) {
  struct Entry {
    char kind;
    py::ssize_t size;
    api::Dtype dtype;
  };
  static constexpr Entry table[] = {{'f', 8, api::Dtype::f8}, {'f', 4, api::Dtype::f4}, {'c', 16, api::Dtype::c16},
                                    {'i', 1, api::Dtype::i1}, {'u', 1, api::Dtype::u1}, {'i', 2, api::Dtype::i2},
                                    {'u', 2, api::Dtype::u2}, {'i', 4, api::Dtype::i4}, {'u', 4, api::Dtype::u4},
                                    {'i', 8, api::Dtype::i8}, {'u', 8, api::Dtype::u8}};
  for (const Entry& e : table)
    if (e.kind == kind && e.size == size) return out = e.dtype, true;
  return false;
}

}  // namespace

api::ArrayRef array_ref(const py::array& a, const std::string& name) {
  api::ArrayRef r;
  r.name = name;
  const py::dtype dt = a.dtype();
  if (!dtype_of(dt.kind(), dt.itemsize(), r.dtype))
    throw InputError(name + ": dtype " + dt.attr("name").cast<std::string>() +
                     " is not one ozref reads (float64, float32, complex128, or an integer type)");
  if (!(a.flags() & py::array::c_style)) throw InputError(name + ": the array is not C-contiguous");
  r.data = a.data();
  for (py::ssize_t d = 0; d < a.ndim(); ++d) r.shape.push_back(static_cast<size_t>(a.shape(d)));
  return r;
}

py::array_t<std::complex<double>> to_numpy_complex(const api::Matrix<double>& re, const api::Matrix<double>& im) {
  py::array_t<std::complex<double>> out({re.rows, re.cols});
  std::complex<double>* p = out.mutable_data();
  for (size_t i = 0; i < re.data.size(); ++i) p[i] = {re.data[i], im.data[i]};
  return out;
}

}  // namespace ozref::python
