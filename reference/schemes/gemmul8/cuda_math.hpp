// The CUDA operations GEMMul8 v2.0.14 uses in its scaling, each as the GPU evaluates it: IEEE 754
// binary32/binary64 with the rounding the intrinsic names (__fma_ru, __dadd_ru, __fadd_ru,
// __fmul_ru, __fsub_rd, __fmaf_rd, __double2float_ru), and the conversions and exponent
// functions with CUDA's rules for the values they meet (ilogb of zero taken as 0 as GEMMul8's
// Tilogb does; cvt.rmi.s32.f32's saturation). Directed roundings are derived exactly: the operation's
// exact value is held as an unevaluated sum of two binary128 numbers (products of binary64 numbers
// are exact there, sums through TwoSum), rounded once; tests/schemes/t-gemmul8-math.cpp holds every
// operation against exact rationals.
#pragma once
#include <cstdint>

namespace ozref::schemes::gemmul8 {

double fma_ru(double a, double b, double c);  // __fma_ru(a, b, c)
double dadd_ru(double a, double b);           // __dadd_ru(a, b)
float double2float_ru(double x);              // __double2float_ru(x)
float fadd_ru(float a, float b);              // __fadd_ru(a, b)
float fmul_ru(float a, float b);              // __fmul_ru(a, b)
float fsub_rd(float a, float b);              // __fsub_rd(a, b)
float fmaf_rd(float a, float b, float c);     // __fmaf_rd(a, b, c)
// __float2int_rd (cvt.rmi.s32.f32): floor, saturated to the int32 range, NaN to 0.
int32_t float2int_rd(float x);
// ilogb for nonzero finite x; 0 for zero (GEMMul8's Tilogb); INT32_MAX for infinity (CUDA's ilogb).
int32_t ilogb_or_zero(double x);
int32_t ilogbf_or_zero(float x);
// int32 arithmetic as the GPU wraps it (two's complement).
inline int32_t wrap_add(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
inline int32_t wrap_neg(int32_t a) { return static_cast<int32_t>(0u - static_cast<uint32_t>(a)); }
// The int16 GEMMul8 stores a shift in (its sftA, sftB): the low 16 bits, two's complement.
inline int16_t to_int16(int32_t a) { return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(a) & 0xFFFFu)); }

}  // namespace ozref::schemes::gemmul8
