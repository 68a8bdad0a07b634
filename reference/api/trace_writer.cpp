// api::TraceWriter (include/ozref/trace_writer.hpp): a kernel's arrays checked as they are added
// (schemes::MemorySubject holds them), then written through the trace writer `ozref run --dump`
// uses, manifest last.
#include "ozref/trace_writer.hpp"

#include "api/public_types.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/memory_subject.hpp"
#include "trace/trace.hpp"

namespace ozref::api {

struct TraceWriter::State {
  std::string dir;
  schemes::Scheme scheme;
  schemes::MemorySubject arrays{scheme};
  bool finished = false;
};

TraceWriter::TraceWriter(std::string dir, const std::string& scheme, size_t m, size_t n, size_t k, const SchemeOptions& options, bool complex)
    : state_(new State{std::move(dir), schemes::build_scheme(scheme, kernel_scheme_options_of(options, complex), m, n, k)}) {
  if (state_->dir.empty()) throw InputError("TraceWriter: empty folder name");
}

TraceWriter::~TraceWriter() = default;
TraceWriter::TraceWriter(TraceWriter&&) noexcept = default;
TraceWriter& TraceWriter::operator=(TraceWriter&&) noexcept = default;

void TraceWriter::add(const std::string& stage, const std::string& array, const ArrayRef& data) {
  if (state_->finished) throw InputError("TraceWriter: " + stage + "." + array + " added after finish()");
  state_->arrays.add(stage, array, npy_of(data));
}

void TraceWriter::finish() {
  if (state_->finished) throw InputError("TraceWriter: finish() called twice");
  state_->arrays.require_whole_stages();
  ozref::TraceWriter out(state_->dir, schemes::trace_header(state_->scheme, "ozref::api::TraceWriter", 0));
  state_->arrays.visit([&](const std::string& stage, const std::string& array, const NpyArray& data) { out.add(stage, array, data); });
  out.finish();
  state_->finished = true;
}

}  // namespace ozref::api
