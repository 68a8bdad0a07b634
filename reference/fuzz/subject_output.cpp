#include "fuzz/subject_output.hpp"

#include <filesystem>

#include "common/error.hpp"
#include "io/npy.hpp"

namespace ozref::fuzz {

SubjectOutcome read_subject_c(const std::string& path, size_t m, size_t n) {
  if (!std::filesystem::exists(path)) return {.kind = SubjectOutcome::BadOutput, .detail = "wrote no C (" + path + ")"};
  try {
    Matrix<double> c = matrix_from_npy(read_npy(path), path);
    if (c.rows != m || c.cols != n)
      return {.kind = SubjectOutcome::BadOutput,
              .detail = "C is " + std::to_string(c.rows) + "x" + std::to_string(c.cols) + ", not " + std::to_string(m) + "x" + std::to_string(n)};
    return {.kind = SubjectOutcome::Ok, .c = std::move(c)};
  } catch (const InputError& e) {
    return {.kind = SubjectOutcome::BadOutput, .detail = std::string("malformed C: ") + e.what()};
  }
}

}  // namespace ozref::fuzz
