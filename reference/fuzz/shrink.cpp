#include "fuzz/shrink.hpp"

#include <chrono>
#include <cmath>
#include <cstring>

namespace ozref::fuzz {
namespace {

Matrix<double> without_rows(const Matrix<double>& x, size_t from, size_t to) {
  Matrix<double> out(x.rows - (to - from), x.cols);
  for (size_t i = 0, r = 0; i < x.rows; ++i)
    if (i < from || i >= to) std::copy_n(&x(i, 0), x.cols, &out(r++, 0));
  return out;
}

Matrix<double> without_cols(const Matrix<double>& x, size_t from, size_t to) {
  Matrix<double> out(x.rows, x.cols - (to - from));
  for (size_t i = 0; i < x.rows; ++i)
    for (size_t j = 0, c = 0; j < x.cols; ++j)
      if (j < from || j >= to) out(i, c++) = x(i, j);
  return out;
}

std::string range(size_t from, size_t to) { return to - from == 1 ? std::to_string(from) : std::to_string(from) + ".." + std::to_string(to - 1); }

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

class Shrinker {
 public:
  Shrinker(const StillFails& still_fails, Shrunk& state, const ShrinkLimits& limits)
      : still_fails_(still_fails), s_(state), limits_(limits), start_(std::chrono::steady_clock::now()) {}

  void run() {
    for (bool progress = true; progress && !out_of_budget();) {
      progress = false;
      for (int dimension = 0; dimension < 3; ++dimension) progress |= drop_lines(dimension);
      progress |= simplify_values();
    }
    s_.seconds = elapsed();
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  bool out_of_budget() {
    if (s_.attempts >= limits_.attempts || elapsed() >= limits_.seconds) s_.budget_ran_out = true;
    return s_.budget_ran_out;
  }

  // Keeps A' and B' (and the step) when the failure persists on them.
  bool attempt(Matrix<double> a, Matrix<double> b, const std::string& step) {
    if (out_of_budget()) return false;
    ++s_.attempts;
    std::optional<Verdict> v = still_fails_(a, b);
    if (!v) return false;
    s_.a = std::move(a), s_.b = std::move(b), s_.verdict = std::move(*v);
    s_.steps.push_back(step);
    return true;
  }

  // Dimension 0: rows of A; 1: columns of B; 2: K (columns of A with rows of B). Chunks of half
  // the length, then a quarter, ... down to single lines.
  bool drop_lines(int dimension) {
    static const char* const names[] = {"rows of A", "columns of B", "K indices"};
    bool progress = false;
    auto length = [&] { return dimension == 0 ? s_.a.rows : dimension == 1 ? s_.b.cols : s_.a.cols; };
    for (size_t chunk = length() / 2; chunk >= 1; chunk /= 2) {
      for (size_t from = 0; from + chunk <= length() && length() > chunk;) {
        const size_t to = from + chunk;
        Matrix<double> a = dimension == 0 ? without_rows(s_.a, from, to) : dimension == 2 ? without_cols(s_.a, from, to) : s_.a;
        Matrix<double> b = dimension == 1 ? without_cols(s_.b, from, to) : dimension == 2 ? without_rows(s_.b, from, to) : s_.b;
        if (attempt(std::move(a), std::move(b), std::string("drop ") + names[dimension] + " " + range(from, to)))
          progress = true;  // the next chunk now starts at `from`
        else
          from += chunk;
        if (out_of_budget()) return progress;
      }
      chunk = std::min(chunk, length());  // a chunk never exceeds what is left
    }
    return progress;
  }

  bool simplify_values() {
    bool progress = false;
    for (int which = 0; which < 2; ++which) {
      for (size_t i = 0; i < (which ? s_.b.size() : s_.a.size()); ++i) progress |= simplify_element(which, i);
    }
    return progress;
  }

  // Zero; fewer mantissa bits; the exponent halfway toward 0 (a magnitude toward 1), repeatedly.
  // Each step lowers (nonzero elements, mantissa bits, |exponent|) in this order, so that
  // shrinking ends.
  bool simplify_element(int which, size_t index) {
    auto value = [&] { return (which ? s_.b : s_.a).data[index]; };
    const size_t cols = which ? s_.b.cols : s_.a.cols;
    const std::string name = std::string(which ? "B" : "A") + "[" + std::to_string(index / cols) + "," + std::to_string(index % cols) + "]";
    auto try_value = [&](double v, const std::string& what) {
      if (same_bits(v, value())) return false;
      Matrix<double> a = s_.a, b = s_.b;
      (which ? b : a).data[index] = v;
      return attempt(std::move(a), std::move(b), name + " " + what);
    };
    if (value() == 0 || !std::isfinite(value()) || out_of_budget()) return false;
    if (try_value(0.0, "= 0")) return true;
    bool progress = false;
    for (int bits : {1, 2, 4, 8, 16, 32})
      if (try_value(with_mantissa_bits(value(), bits), "to " + std::to_string(bits) + " mantissa bits")) {
        progress = true;
        break;
      }
    for (;;) {
      int e = 0;
      std::frexp(value(), &e);
      const int step = -(e - 1) / 2;  // toward the binade of 1 (frexp's exponent 1)
      if (step == 0 || !try_value(std::ldexp(value(), step), "exponent moved by " + std::to_string(step))) break;
      progress = true;
    }
    return progress;
  }

  const StillFails& still_fails_;
  Shrunk& s_;
  ShrinkLimits limits_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

double with_mantissa_bits(double x, int bits) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  const double f = std::frexp(x, &e);  // |f| in [0.5, 1)
  return std::ldexp(std::round(std::ldexp(f, bits)), e - bits);
}

Shrunk shrink(const StillFails& still_fails, Matrix<double> a, Matrix<double> b, Verdict original, const ShrinkLimits& limits) {
  Shrunk s{.a = std::move(a), .b = std::move(b), .verdict = std::move(original)};
  Shrinker(still_fails, s, limits).run();
  return s;
}

}  // namespace ozref::fuzz
