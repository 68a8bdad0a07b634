// A scheme resolved for one run: its stages in order, its options resolved once (moduli list,
// slices, bounds, instruction), the shape of its inputs and where its result is. Built by the
// scheme registry (schemes/registry.hpp) from the options a user gives; the runner, the CLI, the
// fuzzers, the benchmarks and the trace manifest all read it.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes {

struct Scheme {
  std::string name;          // "ozaki2-int8"
  nlohmann::json options;    // the options as given, by their command-line names
  nlohmann::json resolved;   // what they resolve to: moduli, instruction, slices, bounds
  // What a kernel author needs besides the arrays' schemas (ozref schema): Ozaki-II's moduli, P,
  // CRT weights and bound on K; null where the scheme has none to give.
  nlohmann::json constants;
  size_t m = 0, n = 0, k = 0;
  size_t parts = 1;          // 2: a complex product (re, im along a leading axis of inputs and result)
  std::vector<std::unique_ptr<Stage>> stages;
  ArrayRef result;           // C: parts x m x n, f8 (or i4 for int8-on-fp4)
  size_t low_precision_gemms = 0;
  bool exact_by_design = true;             // false: an approximate reconstruction (dd, fp64 sums)
  bool condition_by_construction = false;  // the exactness condition holds by construction
  // Refuses inputs the scheme cannot take (NaN, values outside INT8, ...) with an InputError
  // naming the element.
  std::function<void(const Arrays&)> check_inputs;

  // input.a (parts x m x k) and input.b (parts x k x n), f8.
  std::vector<ArraySpec> input_specs() const;
  const Stage* find(std::string_view stage) const;  // null when the scheme has no such stage
  // The bytes a run holds at most: the inputs and every stage's outputs whole (as a traced run
  // holds them; an untraced one frees and batches some, and holds less), and with a trace the
  // .npy copy of the largest array being written (the copy and its serialised bytes).
  double held_bytes(bool traced) const;
};

}  // namespace ozref::schemes
