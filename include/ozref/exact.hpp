// The exact product of two matrices, rounded once: what `ozref exact` writes.
#pragma once
#include <string>

#include "ozref/array.hpp"

namespace ozref::api {

struct ExactProduct {
  size_t m = 0, n = 0, k = 0;
  // A complex product (A or B c16): each matrix below is m x 2n, each element's real part then its
  // imaginary part (the layout of an m x n array of std::complex), each part rounded once.
  bool complex = false;
  Matrix<double> fp64;  // each element of A*B rounded to nearest-even FP64 (+-Inf past its range)
  Matrix<float> fp32;   // each element rounded once to nearest-even FP32 (not via FP64)
  // E - fp64 correctly rounded to FP64 (0 where fp64 is not finite): fp64 + residual is E's
  // double-double form wherever |E| is above about 2^-969; below it the residual underflows
  // (partly or wholly) into FP64's subnormal range. check() and the metrics do not use this
  // field: they measure against an 80-bit residual that keeps 64 bits at every magnitude.
  Matrix<double> residual;
};

// A (m x k) times B (k x n), each f8 or f4 (widened exactly), or c16 for a complex product (a
// real operand beside it has a zero imaginary part). InputError for other dtypes, for
// shapes that do not agree, and for a product beyond the memory budget. threads 0: all cores.
ExactProduct exact(const ArrayRef& a, const ArrayRef& b, int threads = 0);

// The same product where `device` says: "cpu" (the function above) or "gpu" (`ozref exact --device
// gpu`: bit for bit the CPU's; InputError saying why where no usable GPU is present). Defined in
// ozref::device, which a program calling it links.
ExactProduct exact(const ArrayRef& a, const ArrayRef& b, int threads, const std::string& device);

}  // namespace ozref::api
