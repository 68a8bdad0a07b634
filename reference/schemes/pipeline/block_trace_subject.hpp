// A trace folder as the subject of one block's scheme run (a distributed verify-trace,
// docs/scale.md): each stage the trace holds supplies the part of its arrays the block needs (the
// box of schemes/pipeline/array_window.hpp), read straight from the files, so that no rank holds
// a whole array. The manifest was checked against the whole product's scheme (TraceSubject), and
// the files' headers, hashes and values were checked whole beforehand, a few MiB at a time
// (scan_trace_array).
#pragma once
#include <string>

#include "schemes/pipeline/block_frame.hpp"
#include "schemes/pipeline/subject.hpp"
#include "trace/manifest.hpp"

namespace ozref {

class BlockTraceSubject final : public schemes::Subject {
 public:
  BlockTraceSubject(const Manifest& manifest, const schemes::BlockFrame& frame) : m_(manifest), frame_(frame) {}
  std::string name() const override { return "trace " + m_.dir; }
  bool provides(const schemes::Stage& stage) const override { return m_.find(std::string(stage.name())) != nullptr; }
  void compute(const schemes::Stage& stage, const schemes::Arrays& in, schemes::Arrays& out) override;

 private:
  const Manifest& m_;
  const schemes::BlockFrame& frame_;
};

}  // namespace ozref
