#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

std::vector<ArraySpec> Scheme::input_specs() const {
  const Axis part{"2", parts, true};
  return {{"a", DType::F8, {part, {"m", m}, {"k", k}}, {}}, {"b", DType::F8, {part, {"k", k}, {"n", n}}, {}}};
}

const Stage* Scheme::find(std::string_view stage) const {
  for (const auto& s : stages)
    if (s->name() == stage) return s.get();
  return nullptr;
}

}  // namespace ozref::schemes
