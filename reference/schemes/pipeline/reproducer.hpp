// A GEMM reproducer: the first element where a subject's low-precision GEMM output differs from the
// MMA model's, as a folder that `ozref mma-check --gemm DIR` replays step by step through the model
// (as CUTLASS's testbeds dump a failing element): a.npy and b.npy (u1, the operand encodings of the
// element's row of A and column of B along K) and element.json (the instruction, where the element
// is, the accumulator input and both outputs as 32-bit patterns).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "schemes/pipeline/stage.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::schemes {

struct Reproducer {
  GemmElement element;
  std::string stage, array, index;
  uint32_t subject = 0, cpu = 0;
};

// The reproducer of element `flat` of a GEMM stage's output `array`, named `index`.
Reproducer reproducer_of(std::string_view stage, std::string_view array, const std::string& index, const GemmElement& element,
                         const Tensor& subject, const Tensor& cpu, size_t flat);
// Writes <dir>/<stage>/ and returns its path; <dir> and <stage> are made and opened without
// following a symbolic link (io/folder.hpp), so that a link planted in a trace folder cannot
// redirect the files.
std::string write_reproducer(const std::string& dir, const Reproducer& r);
// The same into the stage's comparison: the folder, or why it could not be written (a read-only
// trace): the verification's report does not depend on the reproducer.
void write_reproducer(const std::string& dir, const Reproducer& r, StageComparison& cmp);
std::string write_reproducer(const std::string& dir, std::string_view stage, std::string_view array, const std::string& index,
                             const GemmElement& element, const Tensor& subject, const Tensor& cpu, size_t flat);
// InputError naming the file and field for a malformed folder.
Reproducer read_reproducer(const std::string& dir);

}  // namespace ozref::schemes
