// The host CPU's own FP16 conversions (F16C: vcvtph2ps / vcvtps2ph, IEEE nearest-even), an
// oracle independent of ozref's encoder. Every x86-64 CPU since 2013 has F16C; without it the
// tests that use it fail rather than pass on nothing.
#pragma once
#include <cpuid.h>
#include <immintrin.h>

#include <cstdint>

namespace ozref::test {

inline bool host_has_f16c() {  // CPUID leaf 1, ECX bit 29 (clang 14's __builtin_cpu_supports lacks "f16c")
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}

__attribute__((target("f16c"))) inline float host_fp16_to_float(uint16_t h) { return _cvtsh_ss(h); }

__attribute__((target("f16c"))) inline uint16_t host_float_to_fp16(float x) {
  return static_cast<uint16_t>(_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT));
}

}  // namespace ozref::test
