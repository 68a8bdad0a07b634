// A test program of a project outside ozref, built against the installed package with only the
// public headers: each call of the interface against an independent answer (integer arithmetic).
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ozref/ozref.hpp>
#include <string>
#include <vector>

namespace {

int checks = 0, failures = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::printf("FAILED: %s\n", what.c_str());
  }
}

// A (m x k) and B (k x n) of small integers, and their product in int64 arithmetic.
struct Problem {
  size_t m = 6, n = 5, k = 40;
  std::vector<double> a, b;
  std::vector<int64_t> product;
  Problem() : a(m * k), b(k * n), product(m * n) {
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(int64_t(i * 37 % 255) - 127);
    for (size_t i = 0; i < b.size(); ++i) b[i] = double(int64_t(i * 91 % 251) - 125);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j)
        for (size_t t = 0; t < k; ++t) product[i * n + j] += int64_t(a[i * k + t]) * int64_t(b[t * n + j]);
  }
  ozref::api::ArrayRef A() const { return ozref::api::matrix(a.data(), m, k, "A"); }
  ozref::api::ArrayRef B() const { return ozref::api::matrix(b.data(), k, n, "B"); }
};

void exact_and_check(const Problem& p) {
  const ozref::api::ExactProduct e = ozref::api::exact(p.A(), p.B());
  bool same = e.m == p.m && e.n == p.n && e.k == p.k;
  for (size_t i = 0; i < p.product.size(); ++i) same = same && e.fp64.data[i] == double(p.product[i]);
  expect(same, "exact() equals the int64 product");
  std::vector<double> c(e.fp64.data);
  c[7] = std::nextafter(c[7], 1e300);  // one element one ulp up
  const ozref::api::CheckReport r = ozref::api::check(p.A(), p.B(), ozref::api::matrix(c.data(), p.m, p.n, "C"));
  expect(r.metrics.elements == p.m * p.n && r.metrics.erring_elements == 1 && r.metrics.max_ulp_error == 1.0,
         "check() finds the one element one ulp off");
  expect(r.json.find("\"erring_elements\":1") != std::string::npos, "check()'s JSON report");
}

void mma_s8() {
  const std::string op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32";
  std::vector<uint8_t> a(32), b(32);
  int64_t sum = 1000;
  for (int t = 0; t < 32; ++t) {
    a[t] = uint8_t(t * 9 - 100), b[t] = uint8_t(77 - t * 5);
    sum += int64_t(int8_t(a[t])) * int8_t(b[t]);
  }
  const uint32_t d = ozref::api::mma(op, {.a = a, .b = b, .c = 1000});
  expect(d == uint32_t(int32_t(sum)), "mma() on s8 operands equals the integer dot product");
}

void run_and_verify(const Problem& p, const std::string& dir) {
  ozref::api::RunOptions options;
  options.dump = dir;
  const ozref::api::RunResult r = ozref::api::run("ozaki2-int8", p.A(), p.B(), options);
  bool same = r.exit_code == 0 && r.exact && r.c.rows == p.m && r.c.cols == p.n && !r.stages.empty();
  for (size_t i = 0; i < p.product.size(); ++i) same = same && r.c.data[i] == double(p.product[i]);
  expect(same, "run(ozaki2-int8) is exact on integer inputs, every stage verified");
  const ozref::api::RunResult v = ozref::api::verify_trace(dir);
  expect(v.exit_code == 0 && v.identical, "verify_trace() of the run's own trace: identical");
}

void refusals_and_lockstep(const Problem& p) {
  try {
    ozref::api::exact(p.A(), p.A());
    expect(false, "exact() of A by A (6x40 by 6x40) must be refused");
  } catch (const ozref::InputError& e) {
    expect(std::string(e.what()) == "shapes do not agree: A (A) is 6x40 but B (A) is 6x40", std::string("the refusal: ") + e.what());
  }
  const ozref::api::LockstepResult l = ozref::api::lockstep("ozaki2-int8", p.A(), p.B());
  expect(l.available ? l.result.exit_code == 0 : !l.why_not.empty(), "lockstep() runs, or says why not: " + l.why_not);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string work = argc > 1 ? argv[1] : std::filesystem::temp_directory_path().string();
  const Problem p;
  exact_and_check(p);
  mma_s8();
  run_and_verify(p, work + "/trace");
  refusals_and_lockstep(p);
  std::printf("consumer: %d checks, %d failed\n", checks, failures);
  return failures == 0 && checks > 0 ? 0 : 1;
}
