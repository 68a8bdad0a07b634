// fuzz_run: a scheme run (ozref run's engine) on a small random configuration with full stage
// verification. Mode byte: the scheme (ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8,
// int8-on-fp4, rare), its architecture and options; next bytes: m, n in 1..4 (the top bit of the
// first: complex, for the ozaki2-* and ozaki1-* schemes) and k in 1..40; the rest fills A and B
// (then their imaginary parts): FP64 bit patterns (8 bytes each) or, for int8-on-fp4, INT8 values.
// Bad input (NaN, infinity) must be refused with InputError; every accepted run must verify every
// stage and be exact (int8-on-fp4: bit-identical to the exact product). The one allowed exception
// is rare's own exactness condition: fp64-emu's scaling can leave the CRT range (when a line's
// sum of squares overflows FP64 it skips its gain), and then the round stage must report exactly
// that and the run must say it is not exact.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/error.hpp"
#include "schemes/int8_on_fp4.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"

namespace {

using namespace ozref;
using namespace ozref::schemes;

struct Operands {
  Matrix<double> a, b, a_im, b_im;
  bool complex = false;
};

SchemeResult run(uint8_t mode, const Operands& x) {
  const int scheme = mode % 6;
  if (scheme == 3) {
    Ozaki1Options o;
    o.slices = 1 + (mode >> 3) % 9;
    o.threads = 1;
    return x.complex ? run_ozaki1_complex(x.a, x.a_im, x.b, x.b_im, o, nullptr) : run_ozaki1(x.a, x.b, o, nullptr);
  }
  if (scheme == 4) {
    Int8OnFp4Options o;
    o.arch = (mode >> 3) & 1 ? "sm_100" : "ideal";
    o.threads = 1;
    return run_int8_on_fp4(x.a, x.b, o, nullptr);
  }
  Ozaki2Options o;
  o.variant = scheme == 0 ? Ozaki2Variant::Int8 : scheme == 1 ? Ozaki2Variant::Fp8 : scheme == 2 ? Ozaki2Variant::Fp4 : Ozaki2Variant::Rare;
  o.arch = (mode >> 3) & 1 ? (o.variant == Ozaki2Variant::Fp4 ? "sm_120" : "sm_90") : "ideal";
  o.mode = (mode >> 4) & 1 ? ScalingMode::Fast : ScalingMode::Accurate;
  o.crt = (mode >> 5) & 1 ? CrtVariant::Garner : CrtVariant::Exact;
  o.moduli = o.variant == Ozaki2Variant::Rare ? 0 : 2 + ((mode >> 6) & 3) * 5;
  o.threads = 1;
  const bool complex = x.complex && o.variant != Ozaki2Variant::Rare;
  return complex ? run_ozaki2_complex(x.a, x.a_im, x.b, x.b_im, o, nullptr) : run_ozaki2(x.a, x.b, o, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint8_t mode = data[0];
  const bool int8_values = mode % 6 == 4;
  const size_t m = 1 + data[1] % 4, n = 1 + data[2] % 4, k = 1 + data[3] % 40;
  Operands x{Matrix<double>(m, k), Matrix<double>(k, n), Matrix<double>(m, k), Matrix<double>(k, n), (data[1] & 0x80) != 0 && !int8_values};
  size_t at = 4;
  auto next = [&]() -> double {
    if (int8_values) return at < size ? double(int8_t(data[at++])) : 0.0;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | (at < size ? data[at++] : 0);
    return std::bit_cast<double>(bits);
  };
  for (Matrix<double>* part : {&x.a, &x.b, &x.a_im, &x.b_im})
    for (double& v : part->data) v = next();
  SchemeResult r;
  try {
    r = run(mode, x);
  } catch (const InputError&) {
    return 0;  // refused with a message: NaN or infinity in the input
  }
  const bool rare_out_of_range = mode % 6 == 5 && !r.exactness_conditions;
  for (const StageReport& s : r.stages)
    if (!s.verified() && !(rare_out_of_range && s.name == "round" && s.violations == 1 &&
                           s.first_violation.find("CRT bound") != std::string::npos)) {
      std::fprintf(stderr, "fuzz_run: mode %u, %zux%zux%zu%s: stage %s: %s\n", mode, m, n, k, x.complex ? " complex" : "",
                   s.name.c_str(), s.first_violation.c_str());
      std::abort();
    }
  if (r.exact == rare_out_of_range) std::abort();  // exact unless (and only unless) rare left its range
  if (int8_values && r.accuracy.bit_identical != r.accuracy.elements) std::abort();
  return 0;
}
