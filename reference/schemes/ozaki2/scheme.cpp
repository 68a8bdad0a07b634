#include "schemes/ozaki2/scheme.hpp"

#include <omp.h>

#include <chrono>

#include "common/error.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

size_t moduli_count(const Ozaki2Options& o, size_t k) {
  if (o.moduli) return o.moduli;
  return o.variant == Ozaki2Variant::Rare ? rare::default_moduli(k) : ozaki2_family(o.variant).default_count;
}

void check_inputs(const std::vector<const Matrix<double>*>& a, const std::vector<const Matrix<double>*>& b, const Ozaki2Options& o) {
  const Ozaki2Family& f = ozaki2_family(o.variant);
  const size_t count = moduli_count(o, a[0]->cols);
  if (a[0]->cols != b[0]->rows)
    throw InputError(f.scheme + ": A is " + std::to_string(a[0]->rows) + "x" + std::to_string(a[0]->cols) + " but B is " +
                     std::to_string(b[0]->rows) + "x" + std::to_string(b[0]->cols));
  if (count < 2 || count > f.moduli.size())
    throw InputError(f.scheme + ": --moduli must be 2.." + std::to_string(f.moduli.size()) + ", got " + std::to_string(count));
  if (a[0]->cols > ozaki2_max_k(o.variant))
    throw InputError(f.scheme + ": K = " + std::to_string(a[0]->cols) + " exceeds the bound " + std::to_string(ozaki2_max_k(o.variant)) +
                     " under which one low-precision GEMM per limb pair stays exact (docs/proofs.md)");
  const char* names[] = {"A", "A (imaginary part)", "B", "B (imaginary part)"};
  for (size_t s = 0; s < a.size(); ++s) require_finite(*a[s], f.scheme.c_str(), names[s]);
  for (size_t s = 0; s < b.size(); ++s) require_finite(*b[s], f.scheme.c_str(), names[2 + s]);
}

}  // namespace

size_t ozaki2_max_k(Ozaki2Variant v) {
  return v == Ozaki2Variant::Fp8 ? 65536 : v == Ozaki2Variant::Fp4 ? 116509 : 131071;
}

namespace ozaki2 {

Context::Context(const Ozaki2Options& options, size_t rows, size_t depth, size_t cols, SchemeResult& result, TraceWriter* t)
    : o(options),
      family(ozaki2_family(options.variant)),
      lowp(scheme_instruction(options.arch, family.format, options.op, family.scheme), family.format),
      N(moduli_count(options, depth)),
      m(rows),
      k(depth),
      n(cols),
      products(make_products(options.variant, N, depth)),
      moduli([&] {
        std::vector<int64_t> v;
        for (const auto& p : products) v.push_back(p->modulus());
        return v;
      }()),
      crt(moduli),
      cheap(options.verify != Verify::None),
      full(options.verify == Verify::Full),
      int8(family.format == LowpFormat::Int8),
      rare(options.variant == Ozaki2Variant::Rare),
      threads(options.threads > 0 ? options.threads : omp_get_max_threads()),
      r(result),
      trace(t) {}

}  // namespace ozaki2

SchemeResult run_ozaki2(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Options& o, TraceWriter* trace) {
  check_inputs({&a}, {&b}, o);
  const auto t_start = std::chrono::steady_clock::now();
  SchemeResult r;
  ozaki2::Context c(o, a.rows, a.cols, b.cols, r, trace);
  ozaki2::Converted x = ozaki2::convert(c, {&a}, {&b});
  std::vector<int64_t> correction;
  Buffer<int16_t> residues;
  {  // Each intermediate is released once nothing after needs it, before the CRT allocates.
    const ozaki2::Planes p = ozaki2::residues(c, x);
    x.a.clear(), x.b.clear();
    residues = ozaki2::modular_products(c, p, {{0, 0}}, x, correction);
  }
  std::vector<Matrix<double>> out;
  ozaki2::reconstruct(c, residues, 1, x, correction, out);
  r.c = std::move(out[0]);
  r.pipeline_seconds = seconds_since(t_start);
  // The double-double reconstruction is approximate by design: never exact.
  finish_run(r, a, b, r.c.data, o.crt != CrtVariant::DoubleDouble, o.threads, t_start);
  return r;
}

SchemeResult run_ozaki2_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki2Options& o, TraceWriter* trace) {
  const std::string& scheme = ozaki2_family(o.variant).scheme;
  if (o.variant == Ozaki2Variant::Rare) throw InputError("rare: --complex is not part of fp64-emu's scheme (use ozaki2-int8)");
  if (a_re.rows != a_im.rows || a_re.cols != a_im.cols || b_re.rows != b_im.rows || b_re.cols != b_im.cols)
    throw InputError(scheme + ": real and imaginary parts differ in shape");
  check_inputs({&a_re, &a_im}, {&b_re, &b_im}, o);
  const auto t_start = std::chrono::steady_clock::now();
  SchemeResult r;
  ozaki2::Context c(o, a_re.rows, a_re.cols, b_re.cols, r, trace);
  ozaki2::Converted x = ozaki2::convert(c, {&a_re, &a_im}, {&b_re, &b_im});
  std::vector<int64_t> correction;
  Buffer<int16_t> residues;
  {  // Each intermediate is released once nothing after needs it, before the CRT allocates.
    const ozaki2::Planes p = ozaki2::residues(c, x);
    x.a.clear(), x.b.clear();
    // 3M: per modulus A_re B_re, A_im B_im and (A_re + A_im)(B_re + B_im).
    const Buffer<int16_t> products = ozaki2::modular_products(c, p, {{0, 0}, {1, 1}, {2, 2}}, x, correction);
    residues = ozaki2::combine_3m(c, p, products);
  }
  std::vector<Matrix<double>> out;
  ozaki2::reconstruct(c, residues, 2, x, correction, out);
  r.c = std::move(out[0]);
  r.c_imag = std::move(out[1]);
  r.pipeline_seconds = seconds_since(t_start);
  // Measured against the exact complex product: [A_re -A_im; A_im A_re] [B_re; B_im] stacks
  // Re C over Im C.
  const StackedComplex s = stack_complex(a_re, a_im, b_re, b_im);
  std::vector<double> computed(r.c.data);
  computed.insert(computed.end(), r.c_imag.data.begin(), r.c_imag.data.end());
  finish_run(r, s.a, s.b, computed, o.crt != CrtVariant::DoubleDouble, o.threads, t_start);
  return r;
}

}  // namespace ozref::schemes
