// NumPy arrays in and out of the extension: an array as the library's ArrayRef (a view, valid
// while the array lives), and result matrices as new NumPy arrays.
#pragma once
#include <pybind11/numpy.h>
#include <string>

#include "ozref/array.hpp"

namespace ozref::python {

// A C-contiguous, native-endian array (ozref/_arrays.py makes it so) of a dtype the library
// knows; InputError naming `name` otherwise.
api::ArrayRef array_ref(const pybind11::array& a, const std::string& name);

template <typename T>
pybind11::array_t<T> to_numpy(api::Matrix<T>&& m) {
  auto* held = new std::vector<T>(std::move(m.data));
  pybind11::capsule owner(held, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return pybind11::array_t<T>({m.rows, m.cols}, held->data(), owner);
}

// A complex result from its parts.
pybind11::array_t<std::complex<double>> to_numpy_complex(const api::Matrix<double>& re, const api::Matrix<double>& im);

}  // namespace ozref::python
