// A user's RapidCheck property on the installed package: the exact product keeps 52 element-wise
// bits on every case ozref::rapidcheck::operands draws. Exit 0 when it holds.
#include <rapidcheck.h>

#include "ozref/check.hpp"
#include "ozref/exact.hpp"
#include "ozref/rapidcheck.hpp"

int main() {
  using namespace ozref;
  const bool held = rc::check("exact product, 52 element-wise bits", [] {
    const rapidcheck::Operands x = *rapidcheck::operands({"randn", "exponent-span", "cancellation"}, 6, 6, 24);
    const api::ArrayRef a = api::matrix(x.a.data.data(), x.a.rows, x.a.cols, "A"), b = api::matrix(x.b.data.data(), x.b.rows, x.b.cols, "B");
    const api::ExactProduct e = api::exact(a, b, 1);
    RC_ASSERT(api::check(a, b, api::matrix(e.fp64.data.data(), e.m, e.n, "C"), 1, api::AccuracyFloor{52, "elementwise"}).gate->passed);
  });
  return held ? 0 : 1;
}
