#include "schemes/pipeline/block_trace_subject.hpp"

#include "io/npy_block.hpp"
#include "schemes/pipeline/array_window.hpp"

namespace ozref {

void BlockTraceSubject::compute(const schemes::Stage& stage, const schemes::Arrays&, schemes::Arrays& out) {
  const ManifestStage& s = *m_.find(std::string(stage.name()));
  for (const ArraySpec& spec : stage.outputs()) {
    const ManifestArray& a = *s.find(spec.name);
    NpyBlockFile file(*m_.folder, a.file);
    require_listed_layout(m_, s, a, file.header().dtype, file.header().shape);  // as scanned, unless it changed since
    file.read_box_into(schemes::window_of(spec, frame_).box, out.get(stage.ref(spec.name)).raw());
  }
}

}  // namespace ozref
