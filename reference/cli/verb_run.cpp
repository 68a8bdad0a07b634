// ozref run: a scheme on the CPU emulator, every stage verified against exact arithmetic, the
// result checked against the exact product; optionally the trace of every stage (--dump).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/operands.hpp"
#include "cli/report.hpp"
#include "cli/verbs.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "io/npy.hpp"
#include "schemes/int8_on_fp4.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/scheme.hpp"

namespace ozref::cli {
namespace {
constexpr double kFullVerifyLimit = 33554432.0;  // m * n * k up to 2^25: full verification by default

// Every scheme `ozref run` knows: its pipeline and whether --complex applies (3M for Ozaki-II,
// 4M for Ozaki-I; fp64-emu and int8-on-fp4 have no complex form).
enum class Pipeline { Ozaki2, Ozaki1, Int8OnFp4 };
struct SchemeEntry {
  const char* name;
  Pipeline pipeline;
  bool complex;
};
const std::vector<SchemeEntry>& schemes_known() {
  static const std::vector<SchemeEntry> all = {
      {"ozaki2-int8", Pipeline::Ozaki2, true}, {"ozaki2-fp8", Pipeline::Ozaki2, true}, {"ozaki2-fp4", Pipeline::Ozaki2, true},
      {"rare", Pipeline::Ozaki2, false},       {"ozaki1-int8", Pipeline::Ozaki1, true}, {"ozaki1-fp4", Pipeline::Ozaki1, true},
      {"int8-on-fp4", Pipeline::Int8OnFp4, false}};
  return all;
}

// The entry of a scheme; InputError naming the known ones otherwise.
const SchemeEntry& scheme_entry(const std::string& name) {
  std::string known;
  for (const SchemeEntry& e : schemes_known()) {
    if (name == e.name) return e;
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw InputError("scheme '" + name + "' is not implemented (implemented: " + known + ")");
}

schemes::Ozaki2Variant ozaki2_variant(const std::string& scheme) {
  if (scheme == "ozaki2-fp8") return schemes::Ozaki2Variant::Fp8;
  if (scheme == "ozaki2-fp4") return schemes::Ozaki2Variant::Fp4;
  if (scheme == "rare") return schemes::Ozaki2Variant::Rare;
  return schemes::Ozaki2Variant::Int8;
}
}  // namespace

int run_run(const RunArgs& args, std::ostream& out) {
  if (args.slicing != "ozimmu" && args.slicing != "cublas") throw InputError("unknown --slicing '" + args.slicing + "' (known: ozimmu, cublas)");
  if (args.slicing != "ozimmu" && args.scheme != "ozaki1-int8") throw InputError("--slicing applies to ozaki1-int8 only");
  const SchemeEntry& entry = scheme_entry(args.scheme);
  if (args.complex && !entry.complex) {
    std::string with;
    for (const SchemeEntry& e : schemes_known())
      if (e.complex) with += (with.empty() ? "" : ", ") + std::string(e.name);
    throw InputError("--complex is implemented for " + with + " (3M for ozaki2, 4M for ozaki1), not " + args.scheme);
  }
  Matrix<double> a, b, a_im, b_im;  // the imaginary parts only with --complex
  std::string source;
  if (!args.a.empty() || !args.b.empty()) {
    if (args.a.empty() || args.b.empty()) throw InputError("--a and --b go together");
    if (args.complex) {
      ComplexMatrix ca = complex_from_npy(read_npy(args.a), args.a), cb = complex_from_npy(read_npy(args.b), args.b);
      if (ca.re.cols != cb.re.rows)
        throw InputError("shapes do not agree: A (" + args.a + ") is " + std::to_string(ca.re.rows) + "x" + std::to_string(ca.re.cols) +
                         " but B (" + args.b + ") is " + std::to_string(cb.re.rows) + "x" + std::to_string(cb.re.cols));
      a = std::move(ca.re), a_im = std::move(ca.im), b = std::move(cb.re), b_im = std::move(cb.im);
    } else {
      Operands ops = load_operands(args.a, args.b);
      a = std::move(ops.a);
      b = std::move(ops.b);
    }
    source = args.a + ", " + args.b;
  } else {
    Rng rng(args.seed);
    const Distribution d = parse_distribution(args.dist);
    a = random_matrix(args.m, args.k, d, rng);
    b = random_matrix(args.k, args.n, d, rng);
    if (args.complex) {  // drawn after the real parts, so those match a real run's
      a_im = random_matrix(args.m, args.k, d, rng);
      b_im = random_matrix(args.k, args.n, d, rng);
    }
    source = to_string(d) + ", seed " + std::to_string(args.seed);
  }
  const double volume = double(a.rows) * double(b.cols) * double(a.cols);
  const schemes::Verify verify = args.verify.empty() ? (volume <= kFullVerifyLimit ? schemes::Verify::Full : schemes::Verify::Cheap)
                                                     : schemes::parse_verify(args.verify);
  const char* verify_names[] = {"none", "cheap", "full"};
  const bool ozaki2 = entry.pipeline == Pipeline::Ozaki2, ozaki1 = entry.pipeline == Pipeline::Ozaki1;
  nlohmann::json options = {{"arch", args.arch}, {"verify", verify_names[static_cast<int>(verify)]}};
  if (!args.op.empty()) options["op"] = args.op;
  if (args.complex) options["complex"] = true;
  if (ozaki2) {
    const auto variant = ozaki2_variant(args.scheme);
    options["moduli"] = args.moduli                                    ? args.moduli
                        : variant == schemes::Ozaki2Variant::Rare ? schemes::rare::default_moduli(a.cols)
                                                                    : schemes::ozaki2_family(variant).default_count;
    if (variant != schemes::Ozaki2Variant::Rare) options["mode"] = args.mode;  // rare scales its own way
    options["crt"] = args.crt;
  } else if (ozaki1) {
    options["slices"] = args.slices ? args.slices : args.scheme == "ozaki1-int8" ? 4 : 15;
    if (args.scheme == "ozaki1-int8") options["slicing"] = args.slicing;
    options["accumulate"] = args.accumulate;
  }
  std::unique_ptr<TraceWriter> trace;
  if (!args.dump.empty())
    trace = std::make_unique<TraceWriter>(args.dump, nlohmann::json{{"scheme", args.scheme}, {"options", options},
                                                                   {"seed", args.seed}, {"source", source},
                                                                   {"m", a.rows}, {"n", b.cols}, {"k", a.cols}});
  schemes::SchemeResult r;
  if (ozaki2) {
    schemes::Ozaki2Options o;
    o.variant = ozaki2_variant(args.scheme);
    o.moduli = args.moduli;
    o.arch = args.arch;
    o.op = args.op;
    o.mode = schemes::parse_scaling(args.mode);
    o.crt = schemes::parse_crt(args.crt);
    o.verify = verify;
    o.threads = args.threads;
    r = args.complex ? schemes::run_ozaki2_complex(a, a_im, b, b_im, o, trace.get()) : schemes::run_ozaki2(a, b, o, trace.get());
  } else if (ozaki1) {
    if (!args.op.empty()) throw InputError(args.scheme + " takes no --op (it issues the architecture's first choice)");
    schemes::Ozaki1Options o;
    o.variant = args.scheme == "ozaki1-fp4" ? schemes::Ozaki1Variant::Fp4
                : args.slicing == "cublas"   ? schemes::Ozaki1Variant::Int8Cublas
                                             : schemes::Ozaki1Variant::Int8;
    o.slices = args.slices;
    o.arch = args.arch;
    o.accumulation = schemes::parse_accumulation(args.accumulate);
    o.verify = verify;
    o.threads = args.threads;
    r = args.complex ? schemes::run_ozaki1_complex(a, a_im, b, b_im, o, trace.get()) : schemes::run_ozaki1(a, b, o, trace.get());
  } else {
    schemes::Int8OnFp4Options o;
    o.arch = args.arch;
    o.op = args.op;
    o.verify = verify;
    o.threads = args.threads;
    r = schemes::run_int8_on_fp4(a, b, o, trace.get());
  }
  if (trace) trace->finish();
  if (!args.out.empty()) write_npy(args.out, args.complex ? npy_from_complex(r.c, r.c_imag) : npy_from_matrix(r.c));
  bool all_verified = true;
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : r.stages) {
    all_verified = all_verified && (!s.checked || s.verified());
    stages.push_back({{"name", s.name}, {"checked", s.checked}, {"verified", s.verified()}, {"violations", s.violations},
                      {"first_violation", s.first_violation}, {"notes", s.notes}, {"seconds", s.seconds}});
  }
  if (args.json) {
    nlohmann::json j = {{"scheme", args.scheme}, {"arch", args.arch}, {"m", a.rows}, {"n", b.cols}, {"k", a.cols},
                        {"options", options}, {"source", source}, {"low_precision_gemms", r.low_precision_gemms},
                        {"stages", stages}, {"exact", r.exact}, {"exactness_conditions", r.exactness_conditions},
                        {"accuracy", metrics_json(r.accuracy)}, {"pipeline_seconds", r.pipeline_seconds},
                        {"seconds", r.seconds}};
    out << j.dump() << "\n";
  } else {
    out << "ozref run: " << args.scheme << " on " << args.arch << ", " << a.rows << "x" << b.cols << "x" << a.cols << " ("
        << source << "), options " << options.dump() << "\n\n";
    out << "  stage        checked  verified  violations  seconds\n";
    for (const auto& s : r.stages) {
      char line[160];
      std::snprintf(line, sizeof line, "  %-12s %-8s %-9s %10zu  %7.3f\n", s.name.c_str(), s.checked ? "yes" : "no",
                    !s.checked ? "-" : s.verified() ? "yes" : "NO", s.violations, s.seconds);
      out << line;
      if (s.violations) out << "      first: " << s.first_violation << "\n";
      for (const std::string& note : s.notes) out << "      " << note << "\n";
    }
    out << "\n  low-precision GEMMs: " << r.low_precision_gemms << "\n  exact (all stages verified, bound held): "
        << (r.exact ? "yes" : "NO") << "\n  pipeline: " << r.pipeline_seconds << " s, total (with the accuracy measurement): "
        << r.seconds << " s\n\n";
    print_metrics(out, "result against the exact product (rounded to FP64)", r.accuracy);
  }
  return all_verified ? 0 : 1;
}

void add_run(CLI::App& app, Action& action) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* verb = app.add_subcommand("run", "run an emulation scheme on the CPU emulator, verifying every stage");
  verb->add_option("--scheme", args->scheme, "ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8, ozaki1-fp4, int8-on-fp4, rare")->capture_default_str();
  verb->add_option("--moduli", args->moduli, "ozaki2-*, rare: number of moduli (int8 2..20, default 16; fp8 2..20, default 14; fp4 2..19, default 19; rare 2..20, default by K as fp64-emu)");
  verb->add_option("--slices", args->slices, "ozaki1-*: number of slices p (int8 1..9, default 4; fp4 1..16, default 15)");
  verb->add_option("--slicing", args->slicing, "ozaki1-int8: ozimmu (signed w-bit slices) or cublas (signed leading slice, unsigned bytes)")->capture_default_str();
  verb->add_option("--accumulate", args->accumulate, "ozaki1-*: exact, fp64 (as ozIMMU) or fused (int8: one INT32 accumulator per t + u)")->capture_default_str();
  verb->add_option("--arch", args->arch, "MMA model of the low-precision GEMMs")->capture_default_str();
  verb->add_option("--op", args->op, "the low-precision instruction (PTX op string; default: the architecture's first choice)");
  verb->add_option("--m", args->m, "rows of A")->capture_default_str();
  verb->add_option("--n", args->n, "columns of B")->capture_default_str();
  verb->add_option("--k", args->k, "inner dimension")->capture_default_str();
  verb->add_option("--a", args->a, "A from a .npy file (f8 or f4) instead of generated data");
  verb->add_option("--b", args->b, "B from a .npy file");
  verb->add_option("--dist", args->dist, "randn, uniform, phi:X, integers:R")->capture_default_str();
  verb->add_option("--seed", args->seed, "PRNG seed of the generated data")->capture_default_str();
  verb->add_option("--mode", args->mode, "ozaki2-*: scaling: fast (Cauchy-Schwarz), accurate (one extra low-precision GEMM), gemmul8-fast (GEMMul8's own formula)")->capture_default_str();
  verb->add_option("--crt", args->crt, "reconstruction: exact, garner, dd")->capture_default_str();
  verb->add_option("--verify", args->verify, "none, cheap, full (default: full up to m*n*k = 2^25, else cheap)");
  verb->add_option("--dump", args->dump, "write the trace of every stage into this folder");
  verb->add_option("--out", args->out, "write C (.npy, f8)");
  verb->add_flag("--complex", args->complex, "complex product: ozaki2-* 3M, ozaki1-* 4M; --a/--b then hold c16 arrays, --out writes c16");
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->add_option("--threads", args->threads, "threads (default: all)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_run(*args, out); }; });
}

}  // namespace ozref::cli
