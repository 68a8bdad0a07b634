#include "schemes/stage_tools.hpp"

#include <bit>
#include <cmath>

#include "common/error.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/rational_oracle.hpp"
#include "formats/encode.hpp"

namespace ozref::schemes {

std::string index3(size_t t, size_t i, size_t j) {
  return "[" + std::to_string(t) + "][" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

void require_finite(const Matrix<double>& m, const char* scheme, const char* name) {
  for (size_t i = 0; i < m.size(); ++i)
    if (!std::isfinite(m.data[i]))
      throw InputError(std::string(scheme) + ": " + name + "[" + std::to_string(i / m.cols) + "," +
                       std::to_string(i % m.cols) + "] is not finite; the scheme needs finite inputs");
}

mpz_class mpz_from_int128(__int128 v) {
  const bool negative = v < 0;
  const unsigned __int128 mag = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  mpz_class z(std::to_string(static_cast<uint64_t>(mag >> 64)));
  z <<= 64;
  z += mpz_class(std::to_string(static_cast<uint64_t>(mag)));
  return negative ? mpz_class(-z) : z;
}

namespace {
// (-1)^negative * top * 2^e plus, when sticky, a positive amount below 2^e, rounded to FP64.
double round_top64(bool negative, uint64_t top, int e, bool sticky) {
  const ExactValue v{FloatClass::Normal, negative, top, e};
  return std::bit_cast<double>(encode(format_spec(FormatId::FP64), v, Rounding::NearestEven, Overflow::NoSat, sticky).bits);
}
}  // namespace

double nearest_double(const mpz_class& c, int e) {
  if (c == 0) return 0.0;
  mpz_class mag = abs(c);
  const long bits = static_cast<long>(mpz_sizeinbase(mag.get_mpz_t(), 2));
  bool sticky = false;
  if (bits > 64) {
    sticky = static_cast<long>(mpz_scan1(mag.get_mpz_t(), 0)) < bits - 64;
    mag >>= static_cast<mp_bitcnt_t>(bits - 64);
    e += static_cast<int>(bits - 64);
  }
  return round_top64(c < 0, mpz_get_ui(mag.get_mpz_t()), e, sticky);
}

double nearest_double(__int128 c, int e) {
  if (c == 0) return 0.0;
  if (const double scale = normal_power_of_two(e); scale != 0) {
    // The compiler's int128 -> double conversion rounds to nearest even, and with |c| >= 1 the
    // scaled value is at least 2^-1022: normal, where scaling by 2^e commutes with the rounding
    // (an overflow is infinity both ways). The unscale stage's common case.
    return static_cast<double>(c) * scale;
  }
  unsigned __int128 mag = c < 0 ? -static_cast<unsigned __int128>(c) : static_cast<unsigned __int128>(c);
  const uint64_t high = static_cast<uint64_t>(mag >> 64);
  const int bits = high ? 128 - __builtin_clzll(high) : 64 - __builtin_clzll(static_cast<uint64_t>(mag));
  bool sticky = false;
  if (bits > 64) {
    const int drop = bits - 64;
    sticky = (mag & ((static_cast<unsigned __int128>(1) << drop) - 1)) != 0;
    mag >>= drop;
    e += drop;
  }
  return round_top64(c < 0, static_cast<uint64_t>(mag), e, sticky);
}

bool is_correct_rounding(const mpz_class& c, int e, double got) {
  mpq_class exact(c);
  if (e >= 0) exact *= mpq_class(mpz_class(1) << e);
  else exact /= mpq_class(mpz_class(1) << -e);
  const oracle::Rounded want = oracle::round(exact, oracle::binary64(), true);
  const double expect = want.overflow ? std::copysign(HUGE_VAL, exact.get_d()) : want.value.get_d();
  return expect == got && (expect != 0 || std::signbit(got) == (exact < 0));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void finish_run(SchemeResult& r, const Matrix<double>& a, const Matrix<double>& b, const std::vector<double>& computed,
                bool reconstruction_exact, int threads, std::chrono::steady_clock::time_point start) {
  const ExactProduct e = exact_gemm(a, b, {.threads = threads});
  r.accuracy = measure(computed, e);
  bool all = true;
  for (const auto& s : r.stages) all = all && s.verified();
  r.exact = all && r.exactness_conditions && reconstruction_exact;
  r.seconds = seconds_since(start);
}

StackedComplex stack_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                             const Matrix<double>& b_im) {
  const size_t m = a_re.rows, k = a_re.cols, n = b_re.cols;
  StackedComplex s{Matrix<double>(2 * m, 2 * k), Matrix<double>(2 * k, n)};
  for (size_t i = 0; i < m; ++i)
    for (size_t kk = 0; kk < k; ++kk) {
      s.a(i, kk) = a_re(i, kk);
      s.a(i, k + kk) = -a_im(i, kk);
      s.a(m + i, kk) = a_im(i, kk);
      s.a(m + i, k + kk) = a_re(i, kk);
    }
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) {
      s.b(kk, j) = b_re(kk, j);
      s.b(k + kk, j) = b_im(kk, j);
    }
  return s;
}

}  // namespace ozref::schemes
