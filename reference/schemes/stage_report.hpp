// What a scheme run reports: each named stage, whether its contract was checked and held, and its
// violations (how many, and the first one, with where it happened and the values on both sides).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "exact/metrics.hpp"
#include "schemes/pipeline/block_frame.hpp"

namespace ozref::schemes {

struct Reproducer;  // schemes/pipeline/reproducer.hpp

enum class Verify { None, Cheap, Full };
Verify parse_verify(const std::string& name);  // "none", "cheap", "full"

// A subject's outputs of a stage (a GPU twin's, a trace's) against the CPU compute.
struct StageComparison {
  bool present = false;           // the subject supplied the stage (else the CPU's outputs were used)
  bool compared = false;          // a function of its inputs: compared bit for bit with the CPU
  size_t differing = 0;           // elements that differ, over all of the stage's arrays
  std::string first_difference;   // "c[0, 3, 5]: subject 17, cpu 18"
  size_t unwritten = 0;           // differing elements the subject never wrote (still the canary)
  std::string first_unwritten;    // "residues.a[0, 1, 2]: never written (the CPU's 17)"
  std::string reproducer;         // the folder written for the first differing GEMM element
  std::string reproducer_error;   // why that folder could not be written (a read-only trace)
  ViolationKey first_at;          // where the first difference lies: {array of the stage, 0, element of the whole array}
  // A distributed verify-trace's block: the reproducer of its first difference, not yet written
  // (the ranks write only that of the first difference of all).
  std::shared_ptr<const Reproducer> pending;
  bool identical() const { return !compared || differing == 0; }
};

struct StageReport {
  std::string name;
  bool checked = false;
  bool has_contract = true;        // false: nothing of its own to check (Stage::has_contract)
  size_t violations = 0;
  std::string first_violation;
  ViolationKey first_at;           // where the first lies (a distributed run keeps the ranks' least)
  std::vector<std::string> notes;  // per-part summaries, e.g. "modulus 443 GEMM 2: 17 of 64 elements not exact"
  std::vector<ViolationKey> note_at;  // each note's part in the order one process makes them (a distributed run orders the ranks' notes by it)
  double seconds = 0;              // compute
  double verify_seconds = 0;
  // The stage that checks the scheme's exactness condition (truncate's CRT bound) says so here.
  bool condition_checked = false, condition_held = true;
  StageComparison comparison;      // runs with a subject
  bool verified() const { return checked && violations == 0; }
  // Verified where the stage has a contract; a stage without one only needs to raise nothing.
  bool holds() const { return violations == 0 && (checked || !has_contract); }
  void violate(const std::string& what, ViolationKey at = {}) {
    if (violations++ == 0) first_violation = what, first_at = at;
  }
  // The violations of a part checked on its own (in parallel), after this report's own.
  void absorb(const StageReport& later) {
    if (violations == 0) first_violation = later.first_violation, first_at = later.first_at;
    violations += later.violations;
    for (size_t i = 0; i < later.notes.size(); ++i) note(later.notes[i], later.note_at[i]);
    condition_checked = condition_checked || later.condition_checked;
    condition_held = condition_held && later.condition_held;
  }
  void note(const std::string& what, ViolationKey at = {}) {
    if (notes.size() < 20) notes.push_back(what), note_at.push_back(at);
  }
};

struct SchemeResult {
  std::vector<StageReport> stages;
  Matrix<double> c;
  Matrix<double> c_imag;  // complex runs: the imaginary part (c is the real part)
  size_t low_precision_gemms = 0;
  bool exactness_conditions = false;  // the scheme's bound held (e.g. sum |A'||B'| < P/2)
  bool exact = false;                 // every stage verified and the conditions held
  bool identical = true;              // runs with a subject: every compared stage bit-identical
  AccuracyMetrics accuracy;
  double pipeline_seconds = 0;  // the stages alone (what a kernel would do), without the accuracy measurement
  double seconds = 0;           // the whole run
};

}  // namespace ozref::schemes
