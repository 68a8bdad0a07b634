#include "fuzz/function_subject.hpp"

#include <exception>

#include "common/error.hpp"

namespace ozref::fuzz {
namespace {

class FunctionSubject : public Subject {
 public:
  explicit FunctionSubject(api::GemmFunction f) : f_(std::move(f)) {}
  SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) override {
    api::Matrix<double> c;
    try {
      c = f_({a.rows, a.cols, a.data}, {b.rows, b.cols, b.data});
    } catch (...) {
      return {.kind = SubjectOutcome::Failed, .detail = "raised: " + failure_message(std::current_exception())};
    }
    if (c.rows != a.rows || c.cols != b.cols || c.data.size() != c.rows * c.cols)
      return {.kind = SubjectOutcome::BadOutput, .detail = "C is " + std::to_string(c.rows) + "x" + std::to_string(c.cols) + " (" +
                                                           std::to_string(c.data.size()) + " elements), not " + std::to_string(a.rows) + "x" +
                                                           std::to_string(b.cols)};
    SubjectOutcome out{.kind = SubjectOutcome::Ok, .c = Matrix<double>(c.rows, c.cols)};
    out.c.data = std::move(c.data);
    return out;
  }
  std::string description() const override { return "a function"; }

 private:
  api::GemmFunction f_;
};

}  // namespace

std::unique_ptr<Subject> make_function_subject(api::GemmFunction function) { return std::make_unique<FunctionSubject>(std::move(function)); }

}  // namespace ozref::fuzz
