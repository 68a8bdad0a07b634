// crt.<variant>.<moduli>: each CRT reconstruction of schemes/common/crt.cpp returns x for every x
// in its declared range, given the balanced residues of x. Exhaustive over the range for small
// moduli sets (the first two or three moduli of a list): exact and dd on (-P/2, P/2]; garner on
// the balanced mixed-radix range, which for these orders is [-P/2, P/2 - 1] when P is even.
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

// The balanced mixed-radix range of Garner's digits: sum of the digit extremes times the radices.
std::pair<int64_t, int64_t> garner_range(const std::vector<int64_t>& moduli) {
  int64_t lo = 0, hi = 0, radix = 1;
  for (int64_t m : moduli) {
    lo += -(m / 2) * radix;
    hi += ((m + 1) / 2 - 1) * radix;
    radix *= m;
  }
  return {lo, hi};
}

Result exhaustive(schemes::CrtVariant variant, const std::vector<int64_t>& moduli) {
  const schemes::Crt crt(moduli);
  const int64_t p = crt.product().get_si();
  int64_t lo = -(p - 1) / 2, hi = p / 2;  // (-P/2, P/2]
  if (variant == schemes::CrtVariant::Garner) std::tie(lo, hi) = garner_range(moduli);
  if (variant == schemes::CrtVariant::DoubleDouble) hi = (p - 1) / 2;  // (-P/2, P/2): rint ties at P/2
  std::vector<int32_t> res(moduli.size());
  Result r;
  r.status = Status::Proved;
  for (int64_t x = lo; x <= hi; ++x) {
    for (size_t t = 0; t < moduli.size(); ++t) res[t] = schemes::balanced_residue(x, moduli[t]);
    int64_t got;
    if (variant == schemes::CrtVariant::DoubleDouble) {
      double h, l;
      crt.double_double(res.data(), h, l);
      got = static_cast<int64_t>(h) + static_cast<int64_t>(l);
      if (double(got) != h + l) got = INT64_MIN;  // not an integer: wrong
    } else {
      got = (variant == schemes::CrtVariant::Exact ? crt.exact(res.data()) : crt.garner(res.data())).get_si();
    }
    if (got != x) {
      r.status = Status::Refuted;
      r.detail = "x = " + std::to_string(x) + " reconstructs as " + std::to_string(got);
      break;
    }
  }
  r.data = {{"moduli", moduli}, {"range", {lo, hi}}, {"values", hi - lo + 1}};
  return r;
}

std::vector<int64_t> prefix(const std::vector<int64_t>& list, size_t n) { return {list.begin(), list.begin() + long(n)}; }

}  // namespace

std::vector<Theorem> crt_theorems() {
  std::vector<Theorem> out;
  const std::pair<std::string, std::vector<int64_t>> sets[] = {
      {"int8_2", prefix(schemes::int8_moduli(), 2)},
      {"fp8_2", prefix(schemes::fp8_square_moduli(), 2)},
      {"fp4_2", prefix(schemes::fp4_moduli(), 2)},
      {"int8_3", prefix(schemes::int8_moduli(), 3)},
  };
  for (const auto& set : sets)
    for (auto v : {schemes::CrtVariant::Exact, schemes::CrtVariant::Garner, schemes::CrtVariant::DoubleDouble}) {
      const std::string& name = set.first;
      const std::vector<int64_t> moduli = set.second;  // a copy the theorem's closure owns
      const bool big = name == "int8_3";
      out.push_back({"crt." + schemes::to_string(v) + "." + name,
                     "CRT (" + schemes::to_string(v) + ") returns every x of its declared range from its residues, moduli " + name,
                     "exhaustive over the range", big, [v, moduli] { return exhaustive(v, moduli); }});
    }
  return out;
}

}  // namespace ozref::proofs
