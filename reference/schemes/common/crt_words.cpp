#include "schemes/common/crt_words.hpp"

#include <algorithm>
#include <cstring>

namespace ozref::schemes {

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

}  // namespace ozref::schemes
