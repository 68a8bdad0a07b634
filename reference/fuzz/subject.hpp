// A subject: the GEMM under test, run on one case. The kinds (subjects.hpp makes them by name): a
// scheme of the registry or the exact product, in process; an external command (exec_subject.hpp);
// a C function in a shared library (dlopen_subject.hpp).
#pragma once
#include <string>
#include <vector>

#include "common/matrix.hpp"

namespace ozref::fuzz {

// What one run of a subject gave.
struct SubjectOutcome {
  enum Kind {
    Ok,        // c holds the product
    Refused,   // the subject declined the input as outside its domain (a scheme's InputError): no finding
    Crashed,   // a signal ended it
    TimedOut,  // it ran past the timeout
    Failed,    // it exited with a non-zero code
    BadOutput, // its C is missing, malformed or not m x n
  } kind = Ok;
  Matrix<double> c = {};
  std::string detail = {};  // for everything but Ok: what happened, in words
};

std::string kind_name(SubjectOutcome::Kind kind);  // "ok", "refused", "crash", "timeout", ...

class Subject {
 public:
  virtual ~Subject() = default;
  virtual SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) = 0;
  // The subject as the command line names it, with its options ("gemmul8@2.0.14 --mode fast").
  virtual std::string description() const = 0;
  // A file the subject wrote for the last run, to keep in a reproducer (exec's log); empty: none.
  virtual std::string last_log() const { return {}; }
};

}  // namespace ozref::fuzz
