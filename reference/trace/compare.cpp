#include "trace/compare.hpp"

#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace ozref {

ArrayDifference compare_arrays(const Tensor& left, const Tensor& right) {
  if (left.dtype() != right.dtype() || left.shape() != right.shape())
    throw std::logic_error("compare_arrays: arrays of different dtype or shape");
  ArrayDifference d;
  const size_t size = dtype_size(left.dtype());
  const uint8_t *x = left.raw(), *y = right.raw();
  for (size_t i = 0; i < left.elements(); ++i) {
    if (std::memcmp(x + i * size, y + i * size, size) == 0) continue;
    if (d.differing++ == 0) d.first = i;
    if (is_canary(left.dtype(), x + i * size) && !is_canary(right.dtype(), y + i * size) && d.unwritten++ == 0) d.first_unwritten = i;
  }
  if (d.differing) {
    d.index = index_text(left.shape(), d.first);
    d.left = element_text(left.dtype(), x + d.first * size);
    d.right = element_text(right.dtype(), y + d.first * size);
  }
  return d;
}

std::string element_text(DType dtype, const uint8_t* p) {
  char buf[96];
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dtype) {
    case DType::F8: {
      const uint64_t u = load(uint64_t{});
      std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", std::bit_cast<double>(u), static_cast<unsigned long long>(u));
      return buf;
    }
    case DType::F4: {
      const uint32_t u = load(uint32_t{});
      std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", double(std::bit_cast<float>(u)), u);
      return buf;
    }
    case DType::I1: return std::to_string(int(load(int8_t{})));
    case DType::U1: return std::to_string(int(load(uint8_t{})));
    case DType::I2: return std::to_string(load(int16_t{}));
    case DType::U2: return std::to_string(load(uint16_t{}));
    case DType::I4: return std::to_string(load(int32_t{}));
    case DType::U4: return std::to_string(load(uint32_t{}));
    case DType::I8: return std::to_string(load(int64_t{}));
    case DType::U8: return std::to_string(load(uint64_t{}));
    case DType::C16: {
      double parts[2];
      std::memcpy(parts, p, sizeof parts);
      std::snprintf(buf, sizeof buf, "%.17g%+.17gi", parts[0], parts[1]);
      return buf;
    }
  }
  return "?";
}

namespace {

// The C-order index of element `flat` of an array of `shape`.
std::vector<size_t> unravel(const std::vector<size_t>& shape, size_t flat) {
  std::vector<size_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return idx;
}

}  // namespace

std::string index_text(const std::vector<size_t>& shape, size_t flat) {
  const std::vector<size_t> idx = unravel(shape, flat);
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

std::string named_index(const ArraySpec& spec, const std::vector<size_t>& shape, size_t flat) {
  const std::vector<Axis> axes = spec.shown_axes();
  if (axes.size() < shape.size()) return index_text(shape, flat);
  const std::vector<size_t> idx = unravel(shape, flat);
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) {
    const Axis& a = axes[d];
    std::string name = a.symbol == "m" ? "i" : a.symbol == "n" ? "j" : a.symbol;
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) name.clear();
    s += d ? ", " : "";
    s += idx[d] < a.labels.size() ? a.labels[idx[d]] : (name.empty() ? "" : name + " ") + std::to_string(idx[d]);
  }
  return s + "]";
}

}  // namespace ozref
