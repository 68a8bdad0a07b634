#include "schemes/stage_array_spec.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace ozref::schemes {
namespace {

std::vector<ArraySpec> specs_of(const Scheme& s, const std::string& stage) {
  if (stage == kInputStage) return s.input_specs();
  const Stage* st = s.find(stage);
  return st ? st->outputs() : std::vector<ArraySpec>{};
}

}  // namespace

void require_whole_stage(const Scheme& s, const std::string& stage, const std::vector<std::string>& given) {
  for (const ArraySpec& spec : specs_of(s, stage))
    if (std::find(given.begin(), given.end(), spec.name) == given.end())
      throw InputError("stage \"" + stage + "\" is given without its array \"" + spec.name + "\" (" + std::string(dtype_name(spec.dtype)) + " " +
                       nlohmann::json(spec.shape()).dump() + ", " + spec.symbolic() + "): a stage is given with all its arrays or not at all");
}

ArraySpec stage_array_spec(const Scheme& s, const std::string& stage, const std::string& array) {
  if (stage != kInputStage && !s.find(stage)) {
    std::string known(kInputStage);
    for (const auto& st : s.stages) known += ", " + std::string(st->name());
    throw InputError("stage \"" + stage + "\" is not a stage of " + s.name + " with these options (its stages: " + known + ")");
  }
  std::string known;
  for (const ArraySpec& spec : specs_of(s, stage)) {
    if (spec.name == array) return spec;
    known += (known.empty() ? "" : ", ") + spec.name;
  }
  throw InputError("stage \"" + stage + "\" of " + s.name + " has no array \"" + array + "\" (its arrays: " + known + ")");
}

ArraySpec require_stage_array(const Scheme& s, const std::string& stage, const std::string& array, DType dtype, const std::vector<size_t>& shape) {
  ArraySpec spec = stage_array_spec(s, stage, array);
  if (dtype != spec.dtype || shape != spec.shape())
    throw InputError(stage + "." + array + " is " + std::string(dtype_name(dtype)) + " " + nlohmann::json(shape).dump() + "; the scheme's is " +
                     std::string(dtype_name(spec.dtype)) + " " + nlohmann::json(spec.shape()).dump() + " (" + spec.symbolic() + ")");
  return spec;
}

}  // namespace ozref::schemes
