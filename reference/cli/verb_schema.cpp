// ozref schema: what a kernel's trace of a scheme holds, stage by stage, for one shape: each array's
// name, dtype, shape (concrete and symbolic), meaning and allowed values, what each stage reads and
// whether it is a free choice or a function of its inputs; and the scheme's constants (moduli, P,
// CRT weights, the bound on K). Built from the stages' own declarations (schemes/schema.hpp).
#include <iomanip>

#include "cli/run_options.hpp"
#include "cli/verbs.hpp"
#include "io/json_text.hpp"
#include "schemes/registry.hpp"
#include "schemes/schema.hpp"

namespace ozref::cli {
namespace {

std::string shape_text(const nlohmann::json& array) {
  std::string s = "[";
  for (const auto& e : array.at("shape")) s += (s.size() > 1 ? ", " : "") + std::to_string(e.get<size_t>());
  return s + "] (" + array.at("symbolic").get<std::string>() + ")";
}

void print_array(std::ostream& out, const nlohmann::json& a) {
  out << "    " << std::left << std::setw(10) << a.at("name").get<std::string>() << " " << a.at("dtype").get<std::string>() << " "
      << shape_text(a) << "\n";
  if (!a.at("meaning").is_null()) out << "               " << a.at("meaning").get<std::string>() << "\n";
  if (!a.at("allowed").is_null()) out << "               allowed: " << a.at("allowed").get<std::string>() << "\n";
}

const char* kind_text(const std::string& kind) {
  if (kind == "choice") return "a free choice: any values meeting the later stages' contracts";
  if (kind == "rounding") return "a floating-point function of its inputs: held to its contract";
  return "a function of its inputs: compared bit for bit";
}

void print_constants(std::ostream& out, const nlohmann::json& c, size_t k) {
  if (c.is_null()) return;
  out << "  instruction " << c.at("instruction").get<std::string>() << " (GEMM output " << c.at("gemm_dtype").get<std::string>() << ")\n";
  out << "  moduli (N = " << c.at("moduli").size() << "), each with its balanced residues and CRT weight w_i:\n";
  for (size_t t = 0; t < c.at("moduli").size(); ++t) {
    const nlohmann::json& m = c.at("moduli")[t];
    out << "    " << std::setw(5) << m.at("modulus").get<int64_t>() << "  [" << m.at("residues")[0].get<int64_t>() << ", "
        << m.at("residues")[1].get<int64_t>() << "]  w = " << c.at("crt_weights")[t].get<std::string>() << "\n";
  }
  out << "  P = " << c.at("P").get<std::string>() << " (2^" << std::fixed << std::setprecision(2) << c.at("log2_P").get<double>() << ")\n"
      << "  " << c.at("crt").get<std::string>() << "\n"
      << "  exactness: " << c.at("exactness").get<std::string>() << " (P/2 = 2^" << c.at("log2_half_P").get<double>() << ")\n"
      << "  largest K one low-precision GEMM keeps exact: " << c.at("max_k").get<size_t>() << "\n";
  const size_t depth = c.value("kblock", k), blocks = c.value("kblocks", size_t{1});
  if (blocks > 1)
    out << "  K-blocks: " << blocks << " GEMMs per modulus, each of depth " << depth << " (the last " << k - (blocks - 1) * depth
        << "); reduce takes their sum\n";
  if (depth > c.at("max_k").get<size_t>())
    out << "  " << (blocks > 1 ? "the K-block " : "K = ") << depth
        << " is past it: a GEMM's sums can leave the accumulator's exact range (verify-trace reports each at gemm)\n";
  out << "\n";
  out.unsetf(std::ios::floatfield);
  out << std::setprecision(6);
}

void print_schema(std::ostream& out, const nlohmann::json& s) {
  out << "ozref schema: " << s.at("scheme").get<std::string>() << ", " << s.at("m") << "x" << s.at("n") << "x" << s.at("k") << ", options "
      << s.at("options").dump() << "\n\n";
  print_constants(out, s.at("constants"), s.at("k").get<size_t>());
  out << "  input (the operands; a trace may hold them or take them with --a, --b)\n";
  for (const auto& a : s.at("inputs")) print_array(out, a);
  size_t index = 1;
  for (const auto& st : s.at("stages")) {
    out << "\n  " << index++ << ". " << st.at("name").get<std::string>() << ": " << kind_text(st.at("kind").get<std::string>()) << "; "
        << (st.at("checked").get<bool>() ? "contract checked" : "no contract of its own") << "\n    reads";
    for (const auto& r : st.at("reads")) out << " " << r.get<std::string>();
    out << "\n";
    for (const auto& a : st.at("arrays")) print_array(out, a);
  }
  out << "\n  result: " << s.at("result").get<std::string>() << "\n";
}

}  // namespace

int run_schema(const RunArgs& args, std::ostream& out) {
  schemes::SchemeOptions options = scheme_options_of(args);
  options.kernel_arrays = true;  // the schema describes a kernel's arrays
  const schemes::Scheme scheme = schemes::build_scheme(args.scheme, options, args.m, args.n, args.k);
  const nlohmann::json schema = schemes::scheme_schema(scheme);
  if (args.json) out << json_text(schema) << "\n";
  else print_schema(out, schema);
  return 0;
}

void add_schema(CLI::App& app, Action& action) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* verb = app.add_subcommand("schema", "what a trace of a scheme holds for a shape: each stage's arrays, and the scheme's constants");
  add_scheme_options(verb, args);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_schema(*args, out); }; });
}

}  // namespace ozref::cli
