#include "schemes/pipeline/admitted_check.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "trace/compare.hpp"

namespace ozref {
namespace {

// An integer element, widened (u8 beyond INT64_MAX: clamped, which no domain admits).
int64_t integer_at(DType dtype, const uint8_t* p) {
  auto load = [p](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (dtype) {
    case DType::I1: return load(int8_t{});
    case DType::U1: return load(uint8_t{});
    case DType::I2: return load(int16_t{});
    case DType::U2: return load(uint16_t{});
    case DType::I4: return load(int32_t{});
    case DType::U4: return load(uint32_t{});
    case DType::I8: return load(int64_t{});
    case DType::U8: return static_cast<int64_t>(std::min<uint64_t>(load(uint64_t{}), INT64_MAX));
    default: throw std::logic_error("first_not_admitted: a domain for a floating-point array");
  }
}

}  // namespace

std::string first_not_admitted(const schemes::Stage& stage, const std::string& array, DType dtype, const uint8_t* bytes, size_t elements,
                               size_t first, const std::vector<size_t>& shape, const std::string& where) {
  const std::optional<schemes::AdmittedValues> admitted = stage.admitted(array);
  if (!admitted) return "";
  const size_t size = dtype_size(dtype);
  for (size_t v = 0; v < elements; ++v)
    if (const int64_t x = integer_at(dtype, bytes + v * size); !admitted->holds(x))
      return where + ": element " + index_text(shape, first + v) + " = " + std::to_string(x) + " is outside what " + std::string(stage.name()) +
             "." + array + " may hold (" + admitted->what + ")";
  return "";
}

}  // namespace ozref
