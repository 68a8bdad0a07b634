#include "schemes/schema.hpp"

#include "schemes/array_meanings.hpp"

namespace ozref::schemes {
namespace {

nlohmann::json array_json(const Scheme& s, std::string_view stage, const ArraySpec& spec, const Stage* owner) {
  const std::string meaning = array_meaning(s.name, stage, spec.name);
  const std::optional<AdmittedValues> admitted = owner ? owner->admitted(spec.name) : std::nullopt;
  return {{"name", spec.name},
          {"dtype", std::string(dtype_name(spec.dtype))},
          {"shape", spec.shape()},
          {"symbolic", spec.symbolic()},
          {"meaning", meaning.empty() ? nlohmann::json() : nlohmann::json(meaning)},
          {"allowed", admitted ? nlohmann::json(admitted->what) : nlohmann::json()}};
}

nlohmann::json stage_json(const Scheme& s, const Stage& stage) {
  nlohmann::json reads = nlohmann::json::array(), arrays = nlohmann::json::array();
  for (const ArrayRef& r : stage.inputs()) reads.push_back(r.key());
  for (const ArraySpec& spec : stage.outputs()) arrays.push_back(array_json(s, stage.name(), spec, &stage));
  return {{"name", std::string(stage.name())}, {"kind", kind_name(stage.kind())}, {"checked", stage.has_contract()}, {"reads", reads}, {"arrays", arrays}};
}

}  // namespace

const char* kind_name(StageKind kind) {
  switch (kind) {
    case StageKind::Function: return "function";
    case StageKind::Choice: return "choice";
    case StageKind::Rounding: return "rounding";
  }
  return "function";
}

nlohmann::json scheme_schema(const Scheme& s) {
  nlohmann::json inputs = nlohmann::json::array(), stages = nlohmann::json::array();
  for (const ArraySpec& spec : s.input_specs()) inputs.push_back(array_json(s, kInputStage, spec, nullptr));
  for (const auto& stage : s.stages) stages.push_back(stage_json(s, *stage));
  return {{"scheme", s.name},  {"options", s.options}, {"resolved", s.resolved}, {"m", s.m},
          {"n", s.n},          {"k", s.k},             {"parts", s.parts},       {"inputs", inputs},
          {"stages", stages},  {"result", s.result.key()}, {"constants", s.constants}};
}

}  // namespace ozref::schemes
