#include "schemes/gemmul8/setup.hpp"

#include "common/named_choice.hpp"
#include "schemes/gemmul8/shifts.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

Ozaki2Options base_options(size_t moduli) {
  Ozaki2Options o;
  o.variant = Ozaki2Variant::Int8;
  o.moduli = moduli;
  o.arch = "sm_90";  // cuBLAS's INT8 GEMMs on the H200: exact integer sums (the sm_90 IMMA model)
  return o;
}

}  // namespace

Mode parse_mode(const std::string& name) { return named_choice<Mode>(name, "--mode", {{"fast", Mode::Fast}, {"accurate", Mode::Accurate}}); }

std::string to_string(Mode mode) { return mode == Mode::Fast ? "fast" : "accurate"; }

Setup::Setup(Mode mode_, size_t moduli, size_t rows, size_t cols, size_t depth)
    : mode(mode_),
      base(std::make_shared<const ozaki2::Setup>(base_options(moduli), rows, cols, depth, 1)),
      N(moduli),
      m(rows),
      n(cols),
      k(depth),
      log2p(table_log2p(moduli)),
      tables(crt_tables(base->crt)),
      lg2(lg2_recording()) {}

}  // namespace ozref::schemes::gemmul8
