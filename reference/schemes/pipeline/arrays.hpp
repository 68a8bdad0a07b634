// The arrays a scheme run holds, by qualified name "<stage>.<array>" ("input.a", "residues.b").
// The scheme's inputs are the arrays of the pseudo-stage "input".
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "trace/tensor.hpp"

namespace ozref::schemes {

inline constexpr std::string_view kInputStage = "input";

struct ArrayRef {
  std::string_view stage, array;
  std::string key() const { return std::string(stage) + "." + std::string(array); }
};

class Arrays {
 public:
  bool has(const ArrayRef& r) const { return map_.count(r.key()) != 0; }
  const Tensor& get(const ArrayRef& r) const;  // std::logic_error when absent (a scheme bug)
  Tensor& get(const ArrayRef& r);
  Tensor& put(const ArrayRef& r, Tensor t);
  void erase(const ArrayRef& r) { map_.erase(r.key()); }
  // The typed shorthands stages use.
  template <typename T>
  const T* data(const ArrayRef& r) const {
    return get(r).as<T>();
  }
  template <typename T>
  T* data(const ArrayRef& r) {
    return get(r).as<T>();
  }

 private:
  std::map<std::string, Tensor> map_;
};

}  // namespace ozref::schemes
