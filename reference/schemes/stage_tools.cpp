#include "schemes/stage_tools.hpp"

#include <bit>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "exact/rational_oracle.hpp"
#include "formats/encode.hpp"

namespace ozref::schemes {

std::string index3(size_t t, size_t i, size_t j) {
  return "[" + std::to_string(t) + "][" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

std::string non_finite_message(const std::string& scheme, const char* name, size_t i, size_t j) {
  return scheme + ": " + name + "[" + std::to_string(i) + "," + std::to_string(j) + "] is not finite; the scheme needs finite inputs";
}

size_t first_non_finite(MatrixView<double> m) {
  for (size_t i = 0; i < m.size(); ++i)
    if (!std::isfinite(m.data[i])) return i;
  return m.size();
}

void require_finite(MatrixView<double> m, const char* scheme, const char* name) {
  if (const size_t i = first_non_finite(m); i < m.size()) throw InputError(non_finite_message(scheme, name, i / m.cols, i % m.cols));
}

mpz_class mpz_from_int128(__int128 v) {
  int64_t words[2];
  std::memcpy(words, &v, sizeof v);
  return mpz_from_words(words, 2);
}

mpz_class mpz_from_words(const int64_t* words, size_t count) {
  mpz_class x;
  mpz_import(x.get_mpz_t(), count, -1, sizeof(int64_t), 0, 0, words);  // as unsigned, low word first
  if (count && words[count - 1] < 0) x -= mpz_class(1) << static_cast<mp_bitcnt_t>(64 * count);
  return x;
}

void words_from_mpz(const mpz_class& x, int64_t* words, size_t count) {
  mpz_class u;
  mpz_fdiv_r_2exp(u.get_mpz_t(), x.get_mpz_t(), static_cast<mp_bitcnt_t>(64 * count));  // two's complement, wrapped to the words
  std::fill(words, words + count, 0);
  size_t written = 0;
  mpz_export(words, &written, -1, sizeof(int64_t), 0, 0, u.get_mpz_t());
}

namespace {
// (-1)^negative * top * 2^e plus, when sticky, a positive amount below 2^e, rounded to FP64.
double round_top64(bool negative, uint64_t top, int e, bool sticky) {
  const ExactValue v{FloatClass::Normal, negative, top, e};
  return std::bit_cast<double>(encode(format_spec(FormatId::FP64), v, Rounding::NearestEven, Overflow::NoSat, sticky).bits);
}

// c rounded to the nearest double, ties to even, as static_cast<double> does but inline (libgcc's
// generic __floattidf is most of the unscale stage's time): beyond 64 bits, the top 64 bits of |c|
// with the bits below them ORed into the lowest one. That sticky bit lies below the rounding
// position (a 64-bit integer keeps 53 of its bits), so it decides ties and halfway cases as the
// dropped bits do; the conversion rounds once and 2^drop scales exactly.
// The sign is applied with bit operations, not branches: it is random in the unscale stage's data.
double nearest_of_int128(__int128 c) {
  const auto negative = static_cast<uint64_t>(static_cast<unsigned __int128>(c) >> 127);
  const unsigned __int128 sign_mask = -static_cast<unsigned __int128>(negative);
  const unsigned __int128 mag = (static_cast<unsigned __int128>(c) ^ sign_mask) + negative;  // |c|
  const auto high = static_cast<uint64_t>(mag >> 64), low = static_cast<uint64_t>(mag);
  double magnitude;
  if (high == 0) {
    magnitude = static_cast<double>(low);
  } else {
    const int drop = 64 - __builtin_clzll(high);              // 1 .. 64
    const bool sticky = (low << (64 - drop)) != 0;            // the low `drop` bits
    const double top = static_cast<double>(static_cast<uint64_t>(mag >> drop) | uint64_t{sticky});
    magnitude = top * std::bit_cast<double>(static_cast<uint64_t>(drop + 1023) << 52);
  }
  return std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) | negative << 63);
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
    // c rounds to nearest even, and with |c| >= 1 the scaled value is at least 2^-1022: normal,
    // where scaling by 2^e commutes with the rounding (an overflow is infinity both ways). The
    // unscale stage's common case.
    return nearest_of_int128(c) * scale;
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
  const mpq_class exact = mpq_class(c) * oracle::pow2(e);
  const oracle::Rounded want = oracle::round(exact, oracle::binary64(), true);
  const double expect = want.overflow ? std::copysign(HUGE_VAL, exact.get_d()) : want.value.get_d();
  return expect == got && (expect != 0 || std::signbit(got) == (exact < 0));
}

std::optional<AdmittedValues> encodable(const LowpGemm& g) {
  if (g.format() == LowpFormat::Int8) return std::nullopt;
  return AdmittedValues{[&g](int64_t v) { return v >= -128 && v <= 127 && g.representable(static_cast<int>(v)); },
                        "values with an exact " + to_string(g.format()) + " encoding, which " + g.spec().op + " takes"};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void require_product_shapes(size_t a_rows, size_t a_cols, size_t b_rows, size_t b_cols, const std::string& scheme) {
  if (a_cols != b_rows)
    throw InputError(scheme + ": A is " + std::to_string(a_rows) + "x" + std::to_string(a_cols) + " but B is " +
                     std::to_string(b_rows) + "x" + std::to_string(b_cols));
}

Arrays input_arrays(const std::vector<MatrixView<double>>& a_parts, const std::vector<MatrixView<double>>& b_parts) {
  Arrays in;
  for (auto [name, parts] : {std::pair{"a", &a_parts}, std::pair{"b", &b_parts}}) {
    const MatrixView<double>& first = parts->front();
    std::vector<size_t> shape = {first.rows, first.cols};
    if (parts->size() == 2) shape.insert(shape.begin(), 2);
    Tensor& t = in.put({kInputStage, name}, Tensor(DType::F8, shape));
    for (size_t s = 0; s < parts->size(); ++s) std::copy_n((*parts)[s].data, first.size(), t.as<double>() + s * first.size());
  }
  return in;
}

StackedComplex real_operands(const Tensor& a, const Tensor& b, size_t parts, size_t m, size_t n, size_t k) {
  const double *x = a.as<double>(), *y = b.as<double>();
  if (parts == 2) return stack_complex({x, m, k}, {x + m * k, m, k}, {y, k, n}, {y + k * n, k, n});
  StackedComplex r{Matrix<double>(m, k), Matrix<double>(k, n)};
  std::copy_n(x, m * k, r.a.data.begin());
  std::copy_n(y, k * n, r.b.data.begin());
  return r;
}

StackedComplex stack_complex(MatrixView<double> a_re, MatrixView<double> a_im, MatrixView<double> b_re,
                             MatrixView<double> b_im) {
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
