// crt: GEMMul8 v2.0.14's reconstruction of C' from the N balanced residues (crt_tables.hpp), one
// double per element, before the scalbn. Its contract is the one GEMMul8's comments claim: the
// exact integer C' in (-P/2, P/2] as the nearest double; the elements where the double-double
// arithmetic falls short are its violations.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "schemes/gemmul8/stages.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

std::vector<const int16_t*> planes_of(const Setup& s, const Arrays& in) {
  const int16_t* r = in.data<int16_t>({ozaki2::Reduce::kReduce, "c"});
  std::vector<const int16_t*> planes(s.N);
  for (size_t t = 0; t < s.N; ++t) planes[t] = r + t * s.m * s.n;
  return planes;
}

// How many doubles apart a and b are (finite, of one sign or zero): their bit patterns' distance.
uint64_t doubles_apart(double a, double b) {
  auto key = [](double x) {  // the order of doubles as an integer order
    const int64_t bits = std::bit_cast<int64_t>(x);
    return bits < 0 ? INT64_MIN - bits : bits;
  };
  const int64_t ka = key(a), kb = key(b);
  return ka > kb ? static_cast<uint64_t>(ka) - static_cast<uint64_t>(kb) : static_cast<uint64_t>(kb) - static_cast<uint64_t>(ka);
}

std::string text(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

std::vector<ArrayRef> Crt::inputs() const { return {{ozaki2::Reduce::kReduce, "c"}}; }

std::vector<ArraySpec> Crt::outputs() const { return {{"c", DType::F8, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Crt::compute(const Arrays& in, Arrays& out, size_t) const {
  const std::vector<const int16_t*> planes = planes_of(*s_, in);
  double* c = out.data<double>(ref("c"));
  const size_t mn = s_->m * s_->n;
#pragma omp parallel for schedule(static)
  for (size_t v = 0; v < mn; ++v) c[v] = reconstruct(s_->tables, planes.data(), v);
}

// Contract (cheap): each element is the nearest double to the exact C' of its residues. Notes:
// how many are not, and by how many ulps at most.
void Crt::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const std::vector<const int16_t*> planes = planes_of(s, in);
  const double* c = out.data<double>(ref("c"));
  uint64_t worst = 0;
  parallel_check(s.m * s.n, report, [&](size_t v0, size_t v1, StageReport& part) {
    uint64_t local = 0;
    for (size_t v = v0; v < v1; ++v) {
      int32_t r[64];
      for (size_t t = 0; t < s.N; ++t) r[t] = planes[t][v];
      const double want = nearest_double(s.base->crt.exact(r), 0);
      if (c[v] == want) continue;
      const uint64_t apart = std::isfinite(c[v]) ? doubles_apart(c[v], want) : UINT64_MAX;
      local = std::max(local, apart);
      part.violate(element_name("crt.c", {{"i", v / s.n}, {"j", v % s.n}}) + " = " + text(c[v]) + " is " + std::to_string(apart) +
                   " doubles from the exact integer's nearest double " + text(want));
    }
#pragma omp critical
    worst = std::max(worst, local);
  });
  if (report.violations)
    report.note(std::to_string(report.violations) + " of " + std::to_string(s.m * s.n) +
                " elements not the nearest double of C' (double-double CRT), at most " + std::to_string(worst) + " doubles away");
}

}  // namespace ozref::schemes::gemmul8
