#include "errors.hpp"

#include <filesystem>
#include <new>

#include "ozref/error.hpp"

namespace ozref::python {
namespace py = pybind11;

namespace {

PyObject* python_type_of(std::exception_ptr failure, PyObject* input_error) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError&) {
    return input_error;
  } catch (const std::bad_alloc&) {
    return PyExc_MemoryError;
  } catch (const std::filesystem::filesystem_error&) {
    return PyExc_OSError;
  } catch (...) {
    return PyExc_RuntimeError;
  }
}

}  // namespace

void register_errors(py::module_& m) {
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const py::error_already_set&) {
      throw;  // a Python exception on its way back: pybind11's own translator restores it
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's (a bad argument type, ...)
    } catch (...) {
      PyErr_SetString(python_type_of(failure, input_error.ptr()), failure_message(failure).c_str());
    }
  });
}

}  // namespace ozref::python
