// fuzz_run: a scheme run (ozref run's engine) on a small random configuration with full stage
// verification. Mode byte: the scheme (ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8,
// int8-on-fp4), its architecture and options; next bytes: m, n in 1..4 and k in 1..40; the rest
// fills A and B: FP64 bit patterns (8 bytes each) or, for int8-on-fp4, INT8 values. Bad input
// (NaN, infinity) must be refused with InputError; every accepted run must verify every stage and
// be exact (int8-on-fp4: bit-identical to the exact product).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "common/error.hpp"
#include "schemes/int8_on_fp4.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"

namespace {

using namespace ozref;
using namespace ozref::schemes;

SchemeResult run(uint8_t mode, const Matrix<double>& a, const Matrix<double>& b) {
  switch (mode % 5) {
    case 0: case 1: case 2: {
      Ozaki2Options o;
      o.variant = mode % 5 == 0 ? Ozaki2Variant::Int8 : mode % 5 == 1 ? Ozaki2Variant::Fp8 : Ozaki2Variant::Fp4;
      o.arch = (mode >> 3) & 1 ? (o.variant == Ozaki2Variant::Fp4 ? "sm_120" : "sm_90") : "ideal";
      o.mode = (mode >> 4) & 1 ? ScalingMode::Fast : ScalingMode::Accurate;
      o.crt = (mode >> 5) & 1 ? CrtVariant::Garner : CrtVariant::Exact;
      o.moduli = 2 + ((mode >> 6) & 3) * 5;
      o.threads = 1;
      return run_ozaki2(a, b, o, nullptr);
    }
    case 3: {
      Ozaki1Options o;
      o.slices = 1 + (mode >> 3) % 9;
      o.threads = 1;
      return run_ozaki1(a, b, o, nullptr);
    }
    default: {
      Int8OnFp4Options o;
      o.arch = (mode >> 3) & 1 ? "sm_100" : "ideal";
      o.threads = 1;
      return run_int8_on_fp4(a, b, o, nullptr);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint8_t mode = data[0];
  const bool int8_values = mode % 5 == 4;
  const size_t m = 1 + data[1] % 4, n = 1 + data[2] % 4, k = 1 + data[3] % 40;
  Matrix<double> a(m, k), b(k, n);
  size_t at = 4;
  auto next = [&]() -> double {
    if (int8_values) return at < size ? double(int8_t(data[at++])) : 0.0;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | (at < size ? data[at++] : 0);
    return std::bit_cast<double>(bits);
  };
  for (double& x : a.data) x = next();
  for (double& x : b.data) x = next();
  SchemeResult r;
  try {
    r = run(mode, a, b);
  } catch (const InputError&) {
    return 0;  // refused with a message: NaN or infinity in the input
  }
  for (const StageReport& s : r.stages)
    if (!s.verified()) std::abort();
  if (!r.exact) std::abort();
  if (int8_values && r.accuracy.bit_identical != r.accuracy.elements) std::abort();
  return 0;
}
