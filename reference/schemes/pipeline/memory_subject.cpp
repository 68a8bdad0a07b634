#include "schemes/pipeline/memory_subject.hpp"

#include <cstring>

#include "common/error.hpp"
#include "schemes/stage_array_spec.hpp"
#include "schemes/pipeline/admitted_check.hpp"

namespace ozref::schemes {
namespace {

void copy_into(const NpyArray& from, Tensor& to) {
  if (from.data.size() != to.bytes()) throw std::logic_error("MemorySubject: array size differs from its tensor");
  std::memcpy(to.raw(), from.data.data(), from.data.size());
}

}  // namespace

void require_stage_data(const Scheme& s, const std::string& stage, const std::string& array, const NpyArray& data) {
  require_stage_array(s, stage, array, data.dtype, data.shape);
  if (stage == kInputStage) return;
  const std::string bad = first_not_admitted(*s.find(stage), array, data.dtype, data.data.data(), data.elements(), 0,
                                             data.shape, stage + "." + array);
  if (!bad.empty()) throw InputError(bad);
}

void MemorySubject::add(const std::string& stage, const std::string& array, NpyArray data) {
  require_stage_data(scheme_, stage, array, data);
  if (!stages_[stage].emplace(array, std::move(data)).second) throw InputError(stage + "." + array + " is given twice");
}

void MemorySubject::require_whole_stages() const {
  for (const auto& [stage, arrays] : stages_) {
    std::vector<std::string> given;
    for (const auto& [name, data] : arrays) given.push_back(name);
    require_whole_stage(scheme_, stage, given);
  }
}

void MemorySubject::visit(const std::function<void(const std::string&, const std::string&, const NpyArray&)>& f) const {
  std::vector<std::pair<std::string, std::vector<ArraySpec>>> order = {{std::string(kInputStage), scheme_.input_specs()}};
  for (const auto& st : scheme_.stages) order.push_back({std::string(st->name()), st->outputs()});
  for (const auto& [stage, specs] : order)
    if (const auto given = stages_.find(stage); given != stages_.end())
      for (const ArraySpec& spec : specs) f(stage, spec.name, given->second.at(spec.name));
}

void MemorySubject::compute(const Stage& stage, const Arrays&, Arrays& out) {
  const auto& given = stages_.at(std::string(stage.name()));
  for (const ArraySpec& spec : stage.outputs()) copy_into(given.at(spec.name), out.get(stage.ref(spec.name)));
}

}  // namespace ozref::schemes
