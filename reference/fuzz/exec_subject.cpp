#include "fuzz/exec_subject.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/error.hpp"
#include "common/run_program.hpp"
#include "fuzz/subject_output.hpp"
#include "io/npy.hpp"

namespace ozref::fuzz {
namespace {

std::string make_work_folder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ozref-fuzz-XXXXXX";
  if (!mkdtemp(pattern.data())) throw InputError("cannot make a work folder " + pattern + ": " + std::strerror(errno));
  return pattern;
}

class ExecSubject : public Subject {
 public:
  ExecSubject(const std::string& cmd, double timeout) : cmd_(cmd), words_(split_command(cmd)), timeout_(timeout), work_(make_work_folder()) {}
  ~ExecSubject() override {
    std::error_code ignored;
    std::filesystem::remove_all(work_, ignored);
  }
  ExecSubject(const ExecSubject&) = delete;
  ExecSubject& operator=(const ExecSubject&) = delete;

  SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) override {
    const std::string a_path = work_ + "/A.npy", b_path = work_ + "/B.npy", c_path = work_ + "/C.npy";
    write_npy(a_path, npy_from_matrix(a));
    write_npy(b_path, npy_from_matrix(b));
    std::filesystem::remove(c_path);  // a C left from the previous case must not pass for this one's
    std::vector<std::string> arguments(words_.begin() + 1, words_.end());
    arguments.insert(arguments.end(), {a_path, b_path, c_path});
    const ProgramEnd end = run_program_limited(words_[0], arguments, {.timeout_seconds = timeout_, .search_path = true, .log = last_log()});
    if (end.kind == ProgramEnd::TimedOut) return {.kind = SubjectOutcome::TimedOut, .detail = "ran past the timeout (" + std::to_string(timeout_) + " s)"};
    if (end.kind == ProgramEnd::Signalled) return {.kind = SubjectOutcome::Crashed, .detail = std::string("ended by signal ") + std::to_string(end.code) + " (" + strsignal(end.code) + ")"};
    if (end.code != 0) return {.kind = SubjectOutcome::Failed, .detail = "exited with code " + std::to_string(end.code)};
    return read_subject_c(c_path, a.rows, b.cols);
  }
  std::string description() const override { return "exec:" + cmd_; }
  std::string last_log() const override { return work_ + "/subject.log"; }

 private:
  std::string cmd_;
  std::vector<std::string> words_;
  double timeout_;
  std::string work_;
};

}  // namespace

std::vector<std::string> split_command(const std::string& cmd) {
  std::vector<std::string> words;
  size_t at = 0;
  while ((at = cmd.find_first_not_of(" \t", at)) != std::string::npos) {
    const size_t end = cmd.find_first_of(" \t", at);
    words.push_back(cmd.substr(at, end - at));
    at = end;
  }
  if (words.empty()) throw InputError("--subject exec: needs a command after 'exec:'");
  return words;
}

std::unique_ptr<Subject> make_exec_subject(const std::string& cmd, double timeout_seconds) { return std::make_unique<ExecSubject>(cmd, timeout_seconds); }

}  // namespace ozref::fuzz
