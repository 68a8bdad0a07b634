// A trace's array against the values the stages reading it are defined on (Stage::admitted):
// verify-trace refuses one holding another value (exit 2), naming the first such element.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref {

// The message for the first of `elements` integers of `dtype` at `bytes` (elements first ..
// first + elements - 1, C order, of an array of `shape`) outside what output `array` of `stage`
// admits; empty when every one is admitted (or the output admits every value). `where` names the
// file as trace_array_where does.
std::string first_not_admitted(const schemes::Stage& stage, const std::string& array, DType dtype, const uint8_t* bytes, size_t elements,
                               size_t first, const std::vector<size_t>& shape, const std::string& where);

}  // namespace ozref
