// fuzz_crt: residues of an integer x (from the input bytes) under a moduli prefix (mode byte)
// must reconstruct x through the exact and Garner CRT, and the Barrett reduction of every int32
// built from the input must give the balanced residue.
#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ozref::schemes;
  if (size < 2) return 0;
  const size_t n = 2 + data[0] % 19;
  const std::vector<int64_t> moduli(int8_moduli().begin(), int8_moduli().begin() + long(n));
  const Crt crt(moduli);
  mpz_class x = 0;
  for (size_t i = 2; i < size && i < 40; ++i) x = (x << 8) + data[i];
  x %= crt.product() / 4;
  if (data[1] & 1) x = -x;
  std::vector<int32_t> r(n);
  for (size_t t = 0; t < n; ++t) r[t] = balanced_residue(mpz_fdiv_ui(x.get_mpz_t(), static_cast<unsigned long>(moduli[t])), moduli[t]);
  if (crt.exact(r.data()) != x || crt.garner(r.data()) != x) std::abort();
  for (size_t i = 0; i + 4 <= size; i += 4) {
    const int32_t v = int32_t(uint32_t(data[i]) | uint32_t(data[i + 1]) << 8 | uint32_t(data[i + 2]) << 16 | uint32_t(data[i + 3]) << 24);
    for (int64_t m : moduli)
      if (BarrettReducer(m).reduce(v) != balanced_residue(v, m)) std::abort();
  }
  return 0;
}
