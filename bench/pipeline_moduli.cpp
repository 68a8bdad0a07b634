#include "pipeline_moduli.hpp"

#include "schemes/registry.hpp"

namespace ozref::bench {

std::vector<int64_t> pipeline_moduli(size_t n, size_t count, bool complex, bool gaussian) {
  schemes::SchemeOptions o;
  o.moduli = count;
  o.mode = "fast";  // the bench's scaling (scale_fast)
  o.complex = complex;
  if (gaussian) o.complex_product = "gaussian";
  return schemes::build_scheme("ozaki2-int8", o, n, n, n).resolved.at("moduli").get<std::vector<int64_t>>();
}

}  // namespace ozref::bench
