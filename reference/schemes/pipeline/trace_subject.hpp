// A trace folder as the subject of a scheme run (verify-trace): each stage the trace holds supplies
// its arrays, read from their files and checked against the manifest and against the stage's
// schema (dtype and shape); a stage the trace lacks is left to the CPU. A stage listed with only
// some of its arrays, or a stage the scheme does not have, is an InputError naming it.
#pragma once
#include <string>

#include "schemes/pipeline/scheme.hpp"
#include "schemes/pipeline/subject.hpp"
#include "trace/manifest.hpp"

namespace ozref {

class TraceSubject final : public schemes::Subject {
 public:
  TraceSubject(Manifest manifest, const schemes::Scheme& scheme);
  std::string name() const override { return "trace " + m_.dir; }
  bool provides(const schemes::Stage& stage) const override { return m_.find(std::string(stage.name())) != nullptr; }
  void compute(const schemes::Stage& stage, const schemes::Arrays& in, schemes::Arrays& out) override;
  // The scheme's inputs (input.a, input.b) from the trace; InputError when it has none.
  schemes::Arrays inputs(const schemes::Scheme& scheme) const;
  // The trace's "input" stage; InputError when it has none.
  const ManifestStage& input_stage() const;

 private:
  Manifest m_;
};

}  // namespace ozref
