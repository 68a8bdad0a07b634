#include "schemes/registry.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "schemes/cublas_fixedpoint/scheme.hpp"
#include "schemes/gemmul8/scheme.hpp"
#include "schemes/int8_on_fp4/scheme.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "schemes/scheme_option_table.hpp"

namespace ozref::schemes {
namespace {

Scheme ozaki2_entry(Ozaki2Variant v, const SchemeOptions& x, size_t m, size_t n, size_t k) {
  Ozaki2Options o;
  o.variant = v;
  o.moduli = x.moduli;
  o.moduli_list = x.moduli_list;
  o.arch = x.arch;
  o.op = x.op;
  o.block = x.block;
  o.kernel_arrays = x.kernel_arrays;
  o.kblock = x.kblock;
  if (!x.mode.empty()) o.mode = parse_scaling(x.mode);
  if (!x.crt.empty()) o.crt = parse_crt(x.crt);
  if (!x.complex_product.empty()) o.complex_product = parse_complex_product(x.complex_product);
  return ozaki2_scheme(o, m, n, k, x.complex ? 2 : 1);
}

Scheme ozaki1_entry(bool fp4, const SchemeOptions& x, size_t m, size_t n, size_t k) {
  Ozaki1Options o;
  o.variant = fp4 ? Ozaki1Variant::Fp4 : Ozaki1Variant::Int8;
  if (!x.slicing.empty()) {
    if (x.slicing != "ozimmu" && x.slicing != "cublas") throw InputError("unknown --slicing '" + x.slicing + "' (known: ozimmu, cublas)");
    if (x.slicing == "cublas") o.variant = Ozaki1Variant::Int8Cublas;
  }
  o.slices = x.slices;
  o.arch = x.arch;
  if (!x.accumulate.empty()) o.accumulation = parse_accumulation(x.accumulate);
  return ozaki1_scheme(o, m, n, k, x.complex ? 2 : 1);
}

Scheme int8_on_fp4_entry(const SchemeOptions& x, size_t m, size_t n, size_t k) {
  Int8OnFp4Options o;
  o.arch = x.arch;
  o.op = x.op;
  return int8_on_fp4_scheme(o, m, n, k);
}

// GEMMul8 v2.0.14 as run on the H200: its GEMMs are the sm_90 INT8 model, nothing else.
Scheme gemmul8_entry(const SchemeOptions& x, size_t m, size_t n, size_t k) {
  if (x.arch != "ideal" && x.arch != "sm_90") throw InputError(std::string(kGemmul8Scheme) + " models its H200 run: --arch sm_90 only, got " + x.arch);
  return gemmul8_scheme(x.mode.empty() ? gemmul8::Mode::Accurate : gemmul8::parse_mode(x.mode), x.moduli ? x.moduli : 14, m, n, k);
}

// cuBLAS 13.1's emulation as run on the H200: its GEMMs are the sm_90 INT8 model.
Scheme cublas_fixedpoint_entry(const SchemeOptions& x, size_t m, size_t n, size_t k) {
  if (x.arch != "ideal" && x.arch != "sm_90")
    throw InputError(std::string(kCublasFixedpointScheme) + " models its H200 run: --arch sm_90 only, got " + x.arch);
  return cublas_fixedpoint_scheme(cublas_mantissa_bits(x.mantissa_bits), x.kblock, m, n, k);
}

}  // namespace

nlohmann::json SchemeOptions::to_json() const {
  nlohmann::json j = {{"arch", arch}};
  for (const OptionDeclaration& d : scheme_option_declarations())
    if (d.given(*this)) j[d.name] = d.value(*this);
  if (complex) j["complex"] = true;
  return j;
}

SchemeOptions SchemeOptions::from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": \"options\" must be an object");
  SchemeOptions o;
  for (const auto& [key, value] : j.items()) {
    if (key == "arch" || key == "complex") {
      if (key == "arch" ? !value.is_string() : !value.is_boolean())
        throw InputError(where + ": option \"" + key + "\" must be " + (key == "arch" ? "a string" : "true or false"));
      if (key == "arch") o.arch = value.get<std::string>();
      else o.complex = value.get<bool>();
    } else if (const OptionDeclaration* d = find_scheme_option(key)) {
      d->set(o, value, where);
    } else {
      throw InputError(where + ": unknown option \"" + key + "\"");
    }
  }
  return o;
}

std::vector<std::string> SchemeOptions::given() const {
  std::vector<std::string> names;
  for (const OptionDeclaration& d : scheme_option_declarations())
    if (d.given(*this)) names.push_back(d.name);
  return names;
}

const std::vector<SchemeEntry>& scheme_registry() {
  using namespace std::placeholders;
  static const std::vector<SchemeEntry> all = {
      {"ozaki2-int8", "Ozaki scheme II on INT8 (GEMMul8's moduli; 3M or Gaussian-moduli complex)", true,
       std::bind(ozaki2_entry, Ozaki2Variant::Int8, _1, _2, _3, _4)},
      {"ozaki2-fp8", "Ozaki scheme II on FP8 e4m3 (square and Karatsuba moduli; 3M complex)", true,
       std::bind(ozaki2_entry, Ozaki2Variant::Fp8, _1, _2, _3, _4)},
      {"ozaki2-fp4", "Ozaki scheme II on FP4 e2m1 (two-limb base-13 moduli; 3M complex)", true,
       std::bind(ozaki2_entry, Ozaki2Variant::Fp4, _1, _2, _3, _4)},
      {"rare", "fp64-emu's Ozaki-II on INT8 with correction GEMMs", false,
       std::bind(ozaki2_entry, Ozaki2Variant::Rare, _1, _2, _3, _4)},
      {"ozaki1-int8", "Ozaki scheme I on INT8 (ozIMMU or cuBLAS-style slices; 4M complex)", true,
       std::bind(ozaki1_entry, false, _1, _2, _3, _4)},
      {"ozaki1-fp4", "Ozaki scheme I on FP4 e2m1 (base-13 digits; 4M complex)", true,
       std::bind(ozaki1_entry, true, _1, _2, _3, _4)},
      {"int8-on-fp4", "an INT8 GEMM reproduced by nine FP4 GEMMs", false, int8_on_fp4_entry},
      {kGemmul8Scheme, "GEMMul8 v2.0.14's INT8 FP64 emulation (RIKEN-RCCS, 71296f9), bit for bit", false, gemmul8_entry},
      {kCublasFixedpointScheme, "cuBLAS 13.1's fixed-point FP64 emulation (INT8 slices, per-K-block scales), bit for bit",
       false, cublas_fixedpoint_entry},
  };
  return all;
}

const SchemeEntry& find_scheme(const std::string& name) {
  std::string known;
  for (const SchemeEntry& e : scheme_registry()) {
    if (name == e.name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw InputError("scheme '" + name + "' is not implemented (implemented: " + known + ")");
}

Scheme build_scheme(const std::string& name, const SchemeOptions& options, size_t m, size_t n, size_t k) {
  const SchemeEntry& e = find_scheme(name);
  const std::vector<std::string> takes = options_taken_by(e.name);
  for (const std::string& option : options.given())
    if (std::find(takes.begin(), takes.end(), option) == takes.end())
      throw InputError(name + " takes no --" + option);
  if (options.complex && !e.complex) {
    std::string with;
    for (const SchemeEntry& other : scheme_registry())
      if (other.complex) with += (with.empty() ? "" : ", ") + other.name;
    throw InputError("--complex is implemented for " + with + " (3M for ozaki2, 4M for ozaki1), not " + name);
  }
  return e.build(options, m, n, k);
}

SchemeOptions with_input_resolved_options(const std::string& name, SchemeOptions options, const Arrays& inputs, size_t m, size_t n, size_t k) {
  if (name == kCublasFixedpointScheme && !options.complex && options.mantissa_bits == "dynamic")
    options.mantissa_bits = with_dynamic_count(options.mantissa_bits, inputs.data<double>({kInputStage, "a"}),
                                               inputs.data<double>({kInputStage, "b"}), m, n, k);
  return options;
}

}  // namespace ozref::schemes
