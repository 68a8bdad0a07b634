#include "fuzz/subject.hpp"

namespace ozref::fuzz {

std::string kind_name(SubjectOutcome::Kind kind) {
  switch (kind) {
    case SubjectOutcome::Ok: return "ok";
    case SubjectOutcome::Refused: return "refused";
    case SubjectOutcome::Crashed: return "crash";
    case SubjectOutcome::TimedOut: return "timeout";
    case SubjectOutcome::Failed: return "non-zero exit";
    case SubjectOutcome::BadOutput: return "bad C";
  }
  return "";
}

}  // namespace ozref::fuzz
