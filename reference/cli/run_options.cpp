#include "cli/run_options.hpp"

#include "cli/options.hpp"
#include "common/error.hpp"
#include "schemes/scheme_option_table.hpp"

namespace ozref::cli {

std::string scheme_names_text() {
  std::string names;
  for (const schemes::SchemeEntry& e : schemes::scheme_registry()) names += (names.empty() ? "" : ", ") + e.name;
  return names;
}

void add_declared_scheme_options(CLI::App* verb, api::SchemeOptions& options) {
  verb->add_option("--arch", options.arch, "MMA model of the low-precision GEMMs: a built-in name or a spec file")->capture_default_str();
  for (const schemes::OptionDeclaration& d : schemes::scheme_option_declarations()) {
    const std::string flag = std::string("--") + d.name, help = d.help_text();
    if (d.text) verb->add_option(flag, options.*d.text, help);
    else if (d.count) add_integer_option(verb, flag, options.*d.count, d.least, d.greatest, help);
    else verb->add_option(flag, options.*d.count_list, help)->delimiter(',')->check(integer_in(static_cast<long long>(d.least), d.greatest));
  }
}

void add_scheme_options(CLI::App* verb, const std::shared_ptr<RunArgs>& args) {
  verb->add_option("--scheme", args->scheme, scheme_names_text() + " (an option below not given: the scheme's default, as ozref schema prints it)")
      ->capture_default_str();
  add_declared_scheme_options(verb, args->options);
  for (auto [flag, value, what] : {std::tuple{"--m", &args->m, "rows of A"}, {"--n", &args->n, "columns of B"}, {"--k", &args->k, "inner dimension"}})
    add_integer_option(verb, flag, *value, size_t{1}, size_t{2147483647}, what)->capture_default_str()->each([args](const std::string&) {
      args->shape_given = true;
    });
  verb->add_flag("--complex", args->complex, "complex product: ozaki2-* 3M, ozaki1-* 4M; --a/--b then hold c16 arrays, --out writes c16");
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

schemes::SchemeOptions scheme_options_of(const RunArgs& a) { return schemes::SchemeOptions(a.options, a.complex); }

SchemeInputs inputs_of(const RunArgs& args) {
  if (args.a.empty() && args.b.empty()) return scheme_inputs_generated(args.m, args.n, args.k, args.dist, args.seed, args.complex);
  if (args.a.empty() || args.b.empty()) throw InputError("--a and --b go together");
  if (args.shape_given) throw InputError("--m, --n and --k are taken from --a and --b: give one or the other");
  return scheme_inputs_from_files(args.a, args.b, args.complex);
}

}  // namespace ozref::cli
