// Helpers every scheme pipeline uses: a stage's clock and report, stage arrays as .npy, and the
// correctly rounded FP64 value of an exact integer times a power of two.
#pragma once
#include <gmpxx.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::schemes {

// Opens a stage in the result on construction and records its time on destruction.
class StageClock {
 public:
  StageClock(SchemeResult& r, const char* name, bool checked) : r_(r), t0_(std::chrono::steady_clock::now()) {
    r_.stages.push_back({name, checked, 0, "", {}, 0});
  }
  ~StageClock() {
    r_.stages.back().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  StageReport& report() { return r_.stages.back(); }

 private:
  SchemeResult& r_;
  std::chrono::steady_clock::time_point t0_;
};

// A stage whose work comes in pieces between another stage's (each modulus's GEMMs, then their
// reduction): opened in the result on construction, each time() adds the time of its piece.
class StageLaps {
 public:
  StageLaps(SchemeResult& r, const char* name, bool checked) : r_(r), index_(r.stages.size()) {
    r_.stages.push_back({name, checked, 0, "", {}, 0});
  }
  StageReport& report() { return r_.stages[index_]; }
  template <typename F>
  void time(F&& piece) {
    const auto t0 = std::chrono::steady_clock::now();
    piece();
    r_.stages[index_].seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  SchemeResult& r_;
  size_t index_;
};

template <typename V>  // a std::vector or Buffer of trivial elements
NpyArray stage_array(DType t, std::vector<size_t> shape, const V& values) {
  NpyArray a;
  a.dtype = t;
  a.shape = std::move(shape);
  a.data.resize(values.size() * sizeof(typename V::value_type));
  std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

mpz_class mpz_from_int128(__int128 v);

// InputError "<scheme>: <name>[i,j] is not finite; ..." for the first NaN or infinity.
void require_finite(const Matrix<double>& m, const char* scheme, const char* name);

// "[t][i][j]" for violation messages.
std::string index3(size_t t, size_t i, size_t j);

// 2^e as a double when it is a normal number (e in [-1022, 1023]: then x * 2^e rounds exactly as
// ldexp(x, e) does), else 0.
inline double normal_power_of_two(int e) {
  return e >= -1022 && e <= 1023 ? std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52) : 0.0;
}

// c * 2^e rounded to the nearest FP64 (ties to even; overflow to infinity; a nonzero value that
// rounds to zero keeps its sign).
double nearest_double(const mpz_class& c, int e);
double nearest_double(__int128 c, int e);

// True when `got` is the GMP oracle's nearest-even rounding of c * 2^e (the unscale contracts).
bool is_correct_rounding(const mpz_class& c, int e, double got);

// Seconds since `start` (a run's pipeline_seconds, taken after its last stage).
double seconds_since(std::chrono::steady_clock::time_point start);

// Closes a run: the accuracy of `computed` (row-major, the shape of A B) against the exact product
// A B, `exact`, the total time.
void finish_run(SchemeResult& r, const Matrix<double>& a, const Matrix<double>& b, const std::vector<double>& computed,
                bool reconstruction_exact, int threads, std::chrono::steady_clock::time_point start);

// A complex product as one real product: [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C].
struct StackedComplex {
  Matrix<double> a, b;
};
StackedComplex stack_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                             const Matrix<double>& b_im);

}  // namespace ozref::schemes
