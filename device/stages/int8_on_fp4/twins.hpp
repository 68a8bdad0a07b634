// The GPU twins of int8-on-fp4's stages (reference/schemes/int8_on_fp4/), on device pointers: the
// same names, array layouts and arithmetic as the CPU stages, so that their outputs are
// bit-identical. Each launches its kernels and waits for them.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ozref::device::int8_on_fp4 {

constexpr size_t kLimbs = 3;  // the CPU's kLimbs: |x| <= 128 < X_3 = 732

// limbs: the three greedy base-13 digits of each of `count` INT8 values (held in doubles), least
// significant first: digit q of element v at limbs[q * count + v].
void limbs(const double* x, size_t count, int8_t* limbs);

// combine: C = sum 13^(i+j) C_ij over the nine GEMM outputs (9 x mn FP32 bits, i outer; each the
// E2M1 product of halved digits, its integer the value times 4; one that is no integer adds
// nothing, as on the CPU), wrapped to INT32.
void combine(const uint32_t* c, size_t mn, int32_t* out);

}  // namespace ozref::device::int8_on_fp4
