#include "fuzz/dlopen_subject.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "common/error.hpp"

namespace ozref::fuzz {
namespace {

using GemmFunction = void (*)(int m, int n, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc);

// A's, B's and C's elements in the function's layout.
std::vector<double> laid_out(const Matrix<double>& x, bool column_major) {
  if (!column_major) return x.data;
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.rows; ++i)
    for (size_t j = 0; j < x.cols; ++j) out[i + j * x.rows] = x(i, j);
  return out;
}

// Shared anonymous memory that a forked child writes and its parent reads.
class SharedDoubles {
 public:
  explicit SharedDoubles(size_t count) : bytes_(std::max<size_t>(count, 1) * sizeof(double)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("dlopen subject: cannot map C's shared memory");
    data_ = static_cast<double*>(p);
    std::fill(data_, data_ + count, std::numeric_limits<double>::quiet_NaN());  // the canary
  }
  ~SharedDoubles() { munmap(data_, bytes_); }
  SharedDoubles(const SharedDoubles&) = delete;
  SharedDoubles& operator=(const SharedDoubles&) = delete;
  double* data() const { return data_; }

 private:
  size_t bytes_;
  double* data_;
};

class DlopenSubject : public Subject {
 public:
  DlopenSubject(const std::string& spec, double timeout) : spec_(spec), timeout_(timeout) {
    const size_t first = spec.find(':');
    if (first == std::string::npos) throw InputError("--subject dlopen:" + spec + ": expected dlopen:LIB:SYMBOL[:rowmajor|colmajor]");
    const std::string library = spec.substr(0, first);
    std::string symbol = spec.substr(first + 1);
    const size_t second = symbol.find(':');
    if (second != std::string::npos) {
      const std::string layout = symbol.substr(second + 1);
      if (layout != "rowmajor" && layout != "colmajor") throw InputError("--subject dlopen:" + spec + ": layout " + quoted_excerpt(layout) + " is neither rowmajor nor colmajor");
      column_major_ = layout == "colmajor";
      symbol.resize(second);
    }
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw InputError("--subject dlopen: cannot load " + library + ": " + dlerror());
    function_ = reinterpret_cast<GemmFunction>(dlsym(handle_, symbol.c_str()));
    if (!function_) throw InputError("--subject dlopen: " + library + " has no symbol " + quoted_excerpt(symbol));
  }
  ~DlopenSubject() override { dlclose(handle_); }
  DlopenSubject(const DlopenSubject&) = delete;
  DlopenSubject& operator=(const DlopenSubject&) = delete;

  SubjectOutcome run(const Matrix<double>& a, const Matrix<double>& b) override {
    const size_t m = a.rows, k = a.cols, n = b.cols;
    const std::vector<double> a_data = laid_out(a, column_major_), b_data = laid_out(b, column_major_);
    SharedDoubles c(m * n);
    const int im = int(m), in = int(n), ik = int(k);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("dlopen subject: fork failed");
    if (pid == 0) {
      // The function's crash must end this child, whatever handlers the parent installed.
      for (int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(crash, SIG_DFL);
      if (column_major_) function_(im, in, ik, a_data.data(), im, b_data.data(), ik, c.data(), im);
      else function_(im, in, ik, a_data.data(), ik, b_data.data(), in, c.data(), in);
      _exit(0);
    }
    SubjectOutcome out = wait_for(pid);
    if (out.kind != SubjectOutcome::Ok) return out;
    out.c = Matrix<double>(m, n);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) out.c(i, j) = column_major_ ? c.data()[i + j * m] : c.data()[i * n + j];
    return out;
  }
  std::string description() const override { return "dlopen:" + spec_; }

 private:
  SubjectOutcome wait_for(pid_t pid) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_);
    int status = 0;
    auto pause = std::chrono::microseconds(20);
    while (waitpid(pid, &status, WNOHANG) != pid) {
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return {.kind = SubjectOutcome::TimedOut, .detail = "ran past the timeout (" + std::to_string(timeout_) + " s)"};
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(10000));
    }
    if (WIFSIGNALED(status))
      return {.kind = SubjectOutcome::Crashed, .detail = "ended by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")"};
    if (WEXITSTATUS(status) != 0) return {.kind = SubjectOutcome::Failed, .detail = "exited with code " + std::to_string(WEXITSTATUS(status))};
    return {};
  }

  std::string spec_;
  double timeout_;
  bool column_major_ = false;
  void* handle_ = nullptr;
  GemmFunction function_ = nullptr;
};

}  // namespace

std::unique_ptr<Subject> make_dlopen_subject(const std::string& spec, double timeout_seconds) { return std::make_unique<DlopenSubject>(spec, timeout_seconds); }

}  // namespace ozref::fuzz
