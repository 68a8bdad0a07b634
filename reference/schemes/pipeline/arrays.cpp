#include "schemes/pipeline/arrays.hpp"

#include <stdexcept>

namespace ozref::schemes {

const Tensor& Arrays::get(const ArrayRef& r) const {
  const auto it = map_.find(r.key());
  if (it == map_.end()) throw std::logic_error("Arrays: no array " + r.key());
  return it->second;
}

Tensor& Arrays::get(const ArrayRef& r) {
  const auto it = map_.find(r.key());
  if (it == map_.end()) throw std::logic_error("Arrays: no array " + r.key());
  return it->second;
}

Tensor& Arrays::put(const ArrayRef& r, Tensor t) { return map_[r.key()] = std::move(t); }

}  // namespace ozref::schemes
