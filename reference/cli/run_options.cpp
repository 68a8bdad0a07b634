#include "cli/run_options.hpp"

#include "cli/options.hpp"
#include "common/error.hpp"

namespace ozref::cli {

void add_scheme_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args) {
  verb->add_option("--scheme", args->scheme, "ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8, ozaki1-fp4, int8-on-fp4, rare, gemmul8@2.0.14, cublas-fixedpoint@13.1")->capture_default_str();
  add_integer_option(verb, "--moduli", args->moduli, size_t{2}, size_t{64},
                     "ozaki2-*, rare: number of moduli (int8 2..20, default 16; fp8 2..20, default 14; fp4 2..19, default 19; rare 2..20, default by K as fp64-emu)");
  verb->add_option("--moduli-list", args->moduli_list,
                   "ozaki2-int8: the kernel's own moduli, comma-separated (2..32 pairwise-coprime integers in 3..256), in place of --moduli")
      ->delimiter(',');
  add_integer_option(verb, "--slices", args->slices, size_t{1}, size_t{64}, "ozaki1-*: number of slices p (int8 1..9, default 4; fp4 1..16, default 15)");
  verb->add_option("--slicing", args->slicing, "ozaki1-int8: ozimmu (signed w-bit slices, the default) or cublas (signed leading slice, unsigned bytes)");
  verb->add_option("--accumulate", args->accumulate, "ozaki1-*: exact (the default), fp64 (as ozIMMU) or fused (int8: one INT32 accumulator per t + u)");
  verb->add_option("--mantissa-bits", args->mantissa_bits,
                   "cublas-fixedpoint@13.1: bits 23..79 (cuBLAS's FIXED control; up to 127 accepted), dynamic:N[:MAX] (a DYNAMIC run's count N under its max "
                   "mantissa bit count MAX, default 79: above it, native FP64), or dynamic (the DYNAMIC control's count from the inputs)");
  add_integer_option(verb, "--kblock", args->kblock, size_t{1}, size_t{2147483647},
                     "ozaki2-int8: each INT32 GEMM's depth, K split into blocks whose sum reduce takes (default: one GEMM over all of K); "
                     "cublas-fixedpoint@13.1: K-block size of the scales (default: the rule fitted to the H200's, docs/third-party.md)");
  verb->add_option("--arch", args->arch, "MMA model of the low-precision GEMMs")->capture_default_str();
  verb->add_option("--op", args->op, "the low-precision instruction (PTX op string; default: the architecture's first choice)");
  for (auto [flag, value, what] : {std::tuple{"--m", &args->m, "rows of A"}, {"--n", &args->n, "columns of B"}, {"--k", &args->k, "inner dimension"}})
    add_integer_option(verb, flag, *value, size_t{1}, size_t{2147483647}, what)->capture_default_str()->each([args](const std::string&) {
      args->shape_given = true;
    });
  verb->add_option("--mode", args->mode, "ozaki2-*: scaling: accurate (the default: one extra low-precision GEMM), fast (Cauchy-Schwarz), gemmul8-fast (GEMMul8's own formula)");
  verb->add_option("--crt", args->crt, "ozaki2-*, rare: reconstruction: exact (the default), garner, dd");
  verb->add_flag("--complex", args->complex, "complex product: ozaki2-* 3M, ozaki1-* 4M; --a/--b then hold c16 arrays, --out writes c16");
  verb->add_option("--complex-product", args->complex_product,
                   "ozaki2-int8 --complex: 3m (the default: three INT8 GEMMs per modulus) or gaussian (two, on moduli with a square root of -1)");
  verb->add_flag("--json", args->json, "one JSON object on standard output");
}

void add_run_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args) {
  add_scheme_options(verb, args);
  verb->add_option("--a", args->a, "A from a .npy file (f8 or f4) instead of generated data");
  verb->add_option("--b", args->b, "B from a .npy file");
  verb->add_option("--dist", args->dist, "randn, uniform, phi:X, integers:R")->capture_default_str();
  add_integer_option(verb, "--seed", args->seed, uint64_t{0}, UINT64_MAX, "PRNG seed of the generated data")->capture_default_str();
  verb->add_option("--verify", args->verify, "none, cheap, full (default: full up to m*n*k = 2^25, else cheap)");
  add_threads_option(verb, args->threads);
}

schemes::SchemeOptions scheme_options_of(const RunArgs& a) {
  schemes::SchemeOptions o;
  o.arch = a.arch;
  o.op = a.op, o.mode = a.mode, o.crt = a.crt, o.slicing = a.slicing, o.accumulate = a.accumulate;
  o.mantissa_bits = a.mantissa_bits, o.complex_product = a.complex_product;
  o.moduli = a.moduli, o.slices = a.slices, o.kblock = a.kblock;
  o.moduli_list = a.moduli_list;
  o.complex = a.complex;
  return o;
}

SchemeInputs inputs_of(const RunArgs& args) {
  if (args.a.empty() && args.b.empty()) return scheme_inputs_generated(args.m, args.n, args.k, args.dist, args.seed, args.complex);
  if (args.a.empty() || args.b.empty()) throw InputError("--a and --b go together");
  if (args.shape_given) throw InputError("--m, --n and --k are taken from --a and --b: give one or the other");
  return scheme_inputs_from_files(args.a, args.b, args.complex);
}

}  // namespace ozref::cli
