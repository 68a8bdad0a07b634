// C' and other integers wider than 64 bits as GMP integers and as the crt stage's arrays: `count`
// 64-bit words, two's complement, least significant first.
#pragma once
#include <gmpxx.h>

#include <cstddef>
#include <cstdint>

namespace ozref::schemes {

mpz_class mpz_from_int128(__int128 v);
mpz_class mpz_from_words(const int64_t* words, size_t count);
// Keeps the low 64 count bits of an x that does not fit (a sum of a trace's outputs beyond the
// scheme's bound), as a kernel's fixed-width accumulator wraps.
void words_from_mpz(const mpz_class& x, int64_t* words, size_t count);

}  // namespace ozref::schemes
