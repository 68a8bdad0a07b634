#include "schemes/pipeline/trace_subject.hpp"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "schemes/pipeline/admitted_check.hpp"

namespace ozref {
namespace {

// The manifest's record of one of the stage's arrays, checked against its schema.
const ManifestArray& array_of(const Manifest& m, const ManifestStage& stage, const ArraySpec& spec) {
  const ManifestArray* a = stage.find(spec.name);
  const std::string where = m.path + ": stage \"" + stage.name + "\"";
  if (!a) throw InputError(where + " lists no array \"" + spec.name + "\" (" + std::string(dtype_name(spec.dtype)) + ", " + spec.symbolic() + ")");
  if (a->dtype != spec.dtype || a->shape != spec.shape())
    throw InputError(where + " array \"" + spec.name + "\" is " + std::string(dtype_name(a->dtype)) + " " + nlohmann::json(a->shape).dump() +
                     "; the scheme's is " + std::string(dtype_name(spec.dtype)) + " " + nlohmann::json(spec.shape()).dump() + " (" +
                     spec.symbolic() + ")");
  return *a;
}

void copy_into(const NpyArray& from, Tensor& to) {
  if (from.data.size() != to.bytes()) throw std::logic_error("TraceSubject: array size differs from its tensor");
  // std::copy, not memcpy: an empty array's data() may be null, which memcpy must not be given
  std::copy(from.data.begin(), from.data.end(), to.raw());
}

}  // namespace

TraceSubject::TraceSubject(Manifest manifest, const schemes::Scheme& scheme) : m_(std::move(manifest)) {
  for (const ManifestStage& stage : m_.stages) {
    if (stage.name == schemes::kInputStage) {
      for (const ArraySpec& spec : scheme.input_specs()) array_of(m_, stage, spec);
      continue;
    }
    const schemes::Stage* s = scheme.find(stage.name);
    if (!s) {
      std::string known = std::string(schemes::kInputStage);
      for (const auto& st : scheme.stages) known += ", " + std::string(st->name());
      throw InputError(m_.path + ": stage \"" + stage.name + "\" is not a stage of " + scheme.name + " with these options (its stages: " + known + ")");
    }
    for (const ArraySpec& spec : s->outputs()) array_of(m_, stage, spec);
    for (const ManifestArray& a : stage.arrays) {
      bool known = false;
      for (const ArraySpec& spec : s->outputs()) known = known || spec.name == a.name;
      if (!known) throw InputError(m_.path + ": stage \"" + stage.name + "\" has no array \"" + a.name + "\" in " + scheme.name);
    }
  }
}

void TraceSubject::compute(const schemes::Stage& stage, const schemes::Arrays&, schemes::Arrays& out) {
  const ManifestStage& s = *m_.find(std::string(stage.name()));
  for (const ArraySpec& spec : stage.outputs()) {
    const ManifestArray& a = array_of(m_, s, spec);
    Tensor& t = out.get(stage.ref(spec.name));
    copy_into(read_trace_array(m_, s, a), t);
    const std::string bad = first_not_admitted(stage, spec.name, t.dtype(), t.raw(), t.elements(), 0, t.shape(), trace_array_where(m_, s, a));
    if (!bad.empty()) throw InputError(bad);
  }
}

schemes::Arrays TraceSubject::inputs(const schemes::Scheme& scheme) const {
  const ManifestStage& s = input_stage();
  schemes::Arrays in;
  for (const ArraySpec& spec : scheme.input_specs()) {
    Tensor& t = in.put({schemes::kInputStage, spec.name}, Tensor(spec));
    copy_into(read_trace_array(m_, s, array_of(m_, s, spec)), t);
  }
  return in;
}

const ManifestStage& TraceSubject::input_stage() const {
  const ManifestStage* s = m_.find(std::string(schemes::kInputStage));
  if (!s) throw InputError(m_.path + ": the trace has no \"input\" stage (arrays a and b): verify-trace needs the scheme's inputs (or --a and --b)");
  return *s;
}

}  // namespace ozref
