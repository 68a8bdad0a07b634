#include "trace/trace_subject.hpp"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "trace/compare.hpp"

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
  std::memcpy(to.raw(), from.data.data(), from.data.size());
}

// Element v of an integer array, widened (u8 beyond INT64_MAX: clamped, which no domain admits).
int64_t integer_at(const Tensor& t, size_t v) {
  const uint8_t* p = t.raw() + v * dtype_size(t.dtype());
  auto load = [p](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t.dtype()) {
    case DType::I1: return load(int8_t{});
    case DType::U1: return load(uint8_t{});
    case DType::I2: return load(int16_t{});
    case DType::U2: return load(uint16_t{});
    case DType::I4: return load(int32_t{});
    case DType::U4: return load(uint32_t{});
    case DType::I8: return load(int64_t{});
    case DType::U8: return static_cast<int64_t>(std::min<uint64_t>(load(uint64_t{}), INT64_MAX));
    default: throw std::logic_error("TraceSubject: a domain for a floating-point array");
  }
}

// InputError naming the file, the element and the values the stage admits, for the first element
// of the stage's output `spec` outside them.
void require_admitted(const schemes::Stage& stage, const ArraySpec& spec, const Tensor& t, const std::string& where) {
  const std::optional<schemes::AdmittedValues> admitted = stage.admitted(spec.name);
  if (!admitted) return;
  for (size_t v = 0; v < t.elements(); ++v)
    if (const int64_t x = integer_at(t, v); !admitted->holds(x))
      throw InputError(where + ": element " + index_text(t.shape(), v) + " = " + std::to_string(x) + " is outside what " +
                       std::string(stage.name()) + "." + spec.name + " may hold (" + admitted->what + ")");
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
    require_admitted(stage, spec, t, trace_array_where(m_, s, a));
  }
}

schemes::Arrays TraceSubject::inputs(const schemes::Scheme& scheme) const {
  const ManifestStage* s = m_.find(std::string(schemes::kInputStage));
  if (!s) throw InputError(m_.path + ": the trace has no \"input\" stage (arrays a and b): verify-trace needs the scheme's inputs (or --a and --b)");
  schemes::Arrays in;
  for (const ArraySpec& spec : scheme.input_specs()) {
    Tensor& t = in.put({schemes::kInputStage, spec.name}, Tensor(spec));
    copy_into(read_trace_array(m_, *s, array_of(m_, *s, spec)), t);
  }
  return in;
}

}  // namespace ozref
