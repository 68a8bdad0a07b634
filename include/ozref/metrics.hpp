// How close a computed C is to the exact product E (docs/verbs/check.md defines each figure).
#pragma once
#include <cstddef>
#include <string>

namespace ozref::api {

struct Metrics {
  size_t elements = 0;
  size_t bit_identical = 0;            // C equals round(E) bit for bit
  size_t compared_elements = 0;        // C and round(E) both finite
  size_t erring_elements = 0;          // ... with C != E
  double correct_bits_maxnorm = 0;     // -log2(max|C - E| / max|E|); NaN: none compared, +inf: none errs
  double correct_bits_elementwise_min = 0;  // min -log2(|C - E| / |E|) over E != 0
  double max_ulp_error = 0;            // max |C - E| / ulp(round(E))
  size_t zero_reference_elements = 0;  // E exactly zero
  size_t zero_reference_mismatches = 0;
  size_t nan_mismatches = 0;
  size_t infinity_mismatches = 0;
};

}  // namespace ozref::api
