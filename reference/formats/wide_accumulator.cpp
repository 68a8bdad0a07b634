#include "formats/wide_accumulator.hpp"

#include <vector>

namespace ozref {

void accumulate(std::span<uint64_t> acc, bool negative, u128 magnitude, unsigned shift) {
  if (magnitude == 0) return;
  size_t w = shift / 64;
  const unsigned b = shift % 64;
  // magnitude << b, split into three words.
  const uint64_t lo = static_cast<uint64_t>(magnitude);
  const uint64_t hi = static_cast<uint64_t>(magnitude >> 64);
  const uint64_t part[3] = {lo << b, b ? (hi << b) | (lo >> (64 - b)) : hi, b ? hi >> (64 - b) : 0};
  if (!negative) {
    unsigned carry = 0;
    for (int i = 0; i < 3 && w < acc.size(); ++i, ++w) {
      const u128 s = u128{acc[w]} + part[i] + carry;
      acc[w] = static_cast<uint64_t>(s);
      carry = static_cast<unsigned>(s >> 64);
    }
    for (; carry && w < acc.size(); ++w) carry = (++acc[w] == 0);
  } else {
    unsigned borrow = 0;
    for (int i = 0; i < 3 && w < acc.size(); ++i, ++w) {
      const uint64_t before = acc[w];
      const uint64_t sub = part[i] + borrow;
      const bool wrapped = borrow && sub == 0;  // part[i] was all ones
      acc[w] = before - sub;
      borrow = wrapped || before < sub;
    }
    for (; borrow && w < acc.size(); ++w) borrow = (acc[w]-- == 0);
  }
}

void negate(std::span<uint64_t> acc) {
  unsigned carry = 1;
  for (auto& word : acc) {
    word = ~word + carry;
    carry = carry && word == 0;
  }
}

ExactValue leading_bits(std::span<const uint64_t> acc, int base, bool& sticky) {
  thread_local std::vector<uint64_t> magnitude;
  magnitude.assign(acc.begin(), acc.end());
  const bool negative = !acc.empty() && (acc.back() >> 63) != 0;
  if (negative) negate(magnitude);
  return leading_bits(negative, magnitude, base, sticky);
}

ExactValue leading_bits(bool negative, std::span<const uint64_t> magnitude, int base, bool& sticky) {
  ExactValue v;
  sticky = false;
  size_t top = magnitude.size();
  while (top > 0 && magnitude[top - 1] == 0) --top;
  if (top == 0) return v;  // exact zero
  v.negative = negative;
  const size_t word = top - 1;
  const int lead = 63 - __builtin_clzll(magnitude[word]);  // msb within that word
  const long msb = static_cast<long>(word) * 64 + lead;     // msb of the whole integer
  v.cls = FloatClass::Normal;
  if (msb < 64) {
    v.significand = magnitude[0];
    v.exponent = base;
    return v;
  }
  const long low = msb - 63;  // bit index of the last kept bit
  const size_t lw = static_cast<size_t>(low / 64);
  const unsigned lb = static_cast<unsigned>(low % 64);
  uint64_t sig = magnitude[lw] >> lb;
  if (lb) sig |= magnitude[lw + 1] << (64 - lb);
  v.significand = sig;
  v.exponent = base + static_cast<int>(low);
  bool below = lb && (magnitude[lw] & ((uint64_t{1} << lb) - 1));
  for (size_t i = 0; i < lw && !below; ++i) below = magnitude[i] != 0;
  sticky = below;
  return v;
}

}  // namespace ozref
