// One array of a scheme's stages as a kernel supplies it (ozref::api::TraceWriter, verify_stages):
// its schema found by stage and array name ("input" for the operands), and an array checked
// against it, with messages that name the stage, the array and what the scheme expects.
#pragma once
#include <string>
#include <vector>

#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

// The schema of `stage`.`array`; InputError naming the scheme's stages, or the stage's arrays,
// when there is no such stage or array.
ArraySpec stage_array_spec(const Scheme& s, const std::string& stage, const std::string& array);
// stage_array_spec, and InputError unless `dtype` and `shape` are the schema's:
// "gemm.c is i8 [2, 4, 3]; the scheme's is i4 [5, 4, 3] (N x m x n)".
ArraySpec require_stage_array(const Scheme& s, const std::string& stage, const std::string& array, DType dtype, const std::vector<size_t>& shape);
// InputError naming the first of the stage's arrays not among `given` (a stage is supplied whole).
void require_whole_stage(const Scheme& s, const std::string& stage, const std::vector<std::string>& given);

}  // namespace ozref::schemes
