// Failures as Python exceptions, with the messages the ozref command prints after "error: ":
// InputError as ozref.InputError (a ValueError), memory exhaustion as MemoryError, file system
// errors as OSError, anything else as RuntimeError.
#pragma once
#include <pybind11/pybind11.h>

namespace ozref::python {

void register_errors(pybind11::module_& m);

}  // namespace ozref::python
