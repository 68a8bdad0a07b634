#include "schemes/pipeline/scheme.hpp"

#include <algorithm>

#include "io/npy.hpp"

namespace ozref::schemes {

std::vector<ArraySpec> Scheme::input_specs() const {
  const Axis part{"2", parts, true};
  return {{"a", DType::F8, {part, {"m", m}, {"k", k}}, {}}, {"b", DType::F8, {part, {"k", k}, {"n", n}}, {}}};
}

double Scheme::held_bytes(bool traced) const {
  double all = 0, largest = 0;
  const auto add = [&](const ArraySpec& spec) {
    const double bytes = double(spec.elements()) * double(dtype_size(spec.dtype));
    all += bytes, largest = std::max(largest, bytes);
  };
  for (const ArraySpec& spec : input_specs()) add(spec);
  for (const auto& stage : stages)
    for (const ArraySpec& spec : stage->outputs()) add(spec);
  return all + (traced ? 2 * largest : 0);
}

const Stage* Scheme::find(std::string_view stage) const {
  for (const auto& s : stages)
    if (s->name() == stage) return s.get();
  return nullptr;
}

}  // namespace ozref::schemes
