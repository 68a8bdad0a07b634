#include "schemes/gemmul8/shifts.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <algorithm>
#include <bit>
#include <cmath>

#include "common/error.hpp"
#include "schemes/gemmul8/cuda_math.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

// What GEMMul8 stores (int16(-shift)) and reads back negated.
int32_t through_int16(int32_t shift) { return -static_cast<int32_t>(to_int16(wrap_neg(shift))); }

// __double2float_rn, as the implicit conversion of a double argument to a float parameter.
float to_float(double x) { return static_cast<float>(x); }

}  // namespace

float table_log2p(size_t moduli) {
  static constexpr float table[19] = {0x1.dfd1ecp+2f, 0x1.6fa336p+3f, 0x1.ef2ea6p+3f, 0x1.372d94p+4f, 0x1.767b2ep+4f, 0x1.b5b028p+4f, 0x1.f49a02p+4f,
                                      0x1.19a858p+5f, 0x1.38f6bcp+5f, 0x1.582adap+5f, 0x1.7736aep+5f, 0x1.961916p+5f, 0x1.b4a4fep+5f, 0x1.d321f8p+5f,
                                      0x1.f180a6p+5f, 0x1.07e7f8p+6f, 0x1.16e7e2p+6f, 0x1.25df9ap+6f, 0x1.34be22p+6f};
  return table[moduli - 2];
}

float log2p_of(const mpz_class& product) {
  using big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<300, boost::multiprecision::digit_base_2>>;
  const mpz_class p1 = product - 1;
  const big t = boost::multiprecision::log(big(p1.get_str())) / boost::multiprecision::log(big(2)) / 2 - big(0.5);
  float f = static_cast<float>(t);
  if (big(f) > t) f = std::nextafter(f, -INFINITY);
  return f;
}

int32_t fast_floor(float log2_f, int32_t exponent, float log2p) {
  const float log2vsum = fadd_ru(log2_f, static_cast<float>(exponent));  // the int exponent converted to float (RN)
  const float log2vnrm = fmul_ru(kHalfUp, log2vsum);
  return float2int_rd(fsub_rd(fsub_rd(log2p, 1.5f), std::fmax(1.0f, log2vnrm)));
}

int32_t accurate_floor(float log2_m, float log2p) { return float2int_rd(fmaf_rd(-kHalfUp, log2_m, log2p)); }

namespace {

// The line's shift from its floor term: the model's, and the range over the log2 window
// [low, high] (the floors are monotone in the log2), or the recorded floor.
template <typename Floor>
LineShift line_shift(Floor floor_of, float x, const Lg2Floor* recorded, int32_t plus, const Lg2Recording& rec) {
  LineShift out;
  auto shift_of = [&](int32_t floor_term) { return through_int16(wrap_add(floor_term, plus)); };
  if (recorded) {
    if (recorded->model != floor_of(log2_nearest(x)))
      throw InputError(rec.source + ": an entry for argument " + std::to_string(x) + " lists the RN floor " + std::to_string(recorded->model) +
                       ", ozref computes " + std::to_string(floor_of(log2_nearest(x))) + ": the probe and the model disagree on GEMMul8's formula");
    out.recorded = true;
    out.shift = out.lowest = out.highest = shift_of(recorded->h200);
    return out;
  }
  float low, high;
  log2_window(x, low, high);
  out.shift = shift_of(floor_of(log2_nearest(x)));
  const int32_t a = shift_of(floor_of(low)), b = shift_of(floor_of(high));
  out.lowest = std::min(a, b), out.highest = std::max(a, b);
  return out;
}

}  // namespace

LineShift fast_line_shift(double amax, double sum_of_squares, int moduli, float log2p, const Lg2Recording& rec) {
  const int32_t e = ilogb_or_zero(sum_of_squares);
  const float f = double2float_ru(std::scalbn(sum_of_squares, -e));  // in [1, 2] (0 for a zero line)
  const auto hit = rec.fast.find({moduli, e, std::bit_cast<uint32_t>(f)});
  return line_shift([&](float y) { return fast_floor(y, e, log2p); }, f, hit == rec.fast.end() ? nullptr : &hit->second,
                    wrap_neg(ilogbf_or_zero(to_float(amax))), rec);
}

LineShift accurate_line_shift(int32_t u, int32_t bound_max, int moduli, float log2p, const Lg2Recording& rec) {
  const float x = static_cast<float>(bound_max);  // __int2float_rn
  const auto hit = rec.accurate.find({moduli, std::bit_cast<uint32_t>(x)});
  return line_shift([&](float y) { return accurate_floor(y, log2p); }, x, hit == rec.accurate.end() ? nullptr : &hit->second, u, rec);
}

int32_t accurate_bound_exponent(double amax) { return to_int16(5 - ilogb_or_zero(amax)); }

}  // namespace ozref::schemes::gemmul8
