#include "fuzz/scheme_subject.hpp"

#include "api/scheme_inputs.hpp"
#include "api/scheme_run.hpp"
#include "common/error.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref::fuzz {
namespace {

std::string joined(const std::string& name, const std::vector<std::string>& words) {
  std::string text = name;
  for (const std::string& w : words) text += " " + w;
  return text;
}

class SchemeSubject : public Subject {
 public:
  explicit SchemeSubject(const SubjectSpec& spec) : spec_(spec) { schemes::build_scheme(spec.name, spec.options, 1, 1, 1); }
  SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) override {
    try {
      // Stages unverified: what is under test is the scheme's C, which the properties check.
      const SchemeRun run = run_named_scheme({.scheme = spec_.name, .options = spec_.options, .verify = "none", .threads = spec_.threads,
                                              .measure_accuracy = false},
                                             real_scheme_inputs({a, b}, "A", "B"));
      return {.kind = SubjectOutcome::Ok, .c = run.result.c};
    } catch (const InputError& e) {
      return {.kind = SubjectOutcome::Refused, .detail = e.what()};
    }
  }
  std::string description() const override { return joined(spec_.name, option_words(spec_.options)); }

 private:
  SubjectSpec spec_;
};

class ExactSubject : public Subject {
 public:
  explicit ExactSubject(int threads) : threads_(threads) {}
  SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) override {
    const ExactProduct e = exact_gemm(a, b, {.threads = threads_});
    SubjectOutcome out{.kind = SubjectOutcome::Ok, .c = Matrix<double>(e.rows, e.cols)};
    std::copy(e.nearest.begin(), e.nearest.end(), out.c.data.begin());
    return out;
  }
  std::string description() const override { return "exact"; }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<Subject> make_scheme_subject(const SubjectSpec& spec) { return std::make_unique<SchemeSubject>(spec); }
std::unique_ptr<Subject> make_exact_subject(int threads) { return std::make_unique<ExactSubject>(threads); }

}  // namespace ozref::fuzz
