// A subject supplies a stage's outputs in place of the CPU compute: a GPU twin of the stage
// (device/stages/), or the arrays of a trace folder written by any kernel (schemes/pipeline/trace_subject.hpp).
// The runner allocates the outputs (filled with a canary), lets the subject write them, checks them
// against the stage's contract and, where the stage is a function of its inputs, compares them bit
// for bit with the CPU compute.
#pragma once
#include <string>
#include <vector>

#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes {

class Subject {
 public:
  virtual ~Subject() = default;
  virtual std::string name() const = 0;  // "trace my-kernel/", "gpu (NVIDIA H200)"
  // Whether this subject supplies the stage's outputs; the CPU's are used for the others.
  virtual bool provides(const Stage& stage) const = 0;
  // Writes every element of each of the stage's outputs in `out` from the inputs in `in`.
  virtual void compute(const Stage& stage, const Arrays& in, Arrays& out) = 0;
  // Whether its floating-point stages (StageKind::Rounding) follow ozref's order of operations, so
  // that they too must match the CPU bit for bit (the GPU twins do; a trace's kernel need not).
  virtual bool follows_rounding_order() const { return false; }
  // Whether it computes each stage from the inputs it is given (the GPU twins; a trace's arrays
  // are fixed). Such a subject, re-synchronised, is given the CPU's outputs of a stage whose own
  // outputs broke the stage's contract, so that the later stages are checked on valid inputs.
  virtual bool computes_from_inputs() const { return false; }
  // Whether the outputs it writes start as the canary (Tensor::fill_canary), so that an element
  // still holding it where the CPU's does not was never written (the GPU twins' device arrays do).
  virtual bool canary_filled() const { return false; }
  // Arrays of earlier stages it reads for `stage` beyond the stage's own inputs (a GPU twin that
  // fuses two stages reads the first one's inputs), which the runner then keeps until `stage`.
  virtual std::vector<ArrayRef> extra_inputs(const Stage&) const { return {}; }
};

}  // namespace ozref::schemes
