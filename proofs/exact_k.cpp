// exact_k.<operands>.<arch>: the largest K for which every low-precision GEMM of a scheme's
// operands stays exact under an architecture's accumulator, derived exactly and then confirmed at
// the boundary through the MMA model (the instruction chain, no fast path): exact at K with the
// worst-case inputs, not exact at K + 1.
// int32.ozaki2_int8.k: the largest K for which K * (largest residue product) fits INT32, for each
// prefix of the INT8 moduli list (the all-(-128) case included).
#include <bit>
#include <cmath>

#include "mma/gemm.hpp"
#include "mma/op_names.hpp"
#include "schemes/common/moduli.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

struct Case {
  std::string id, statement, arch, op;
  bool integer;            // int32 accumulation (wrap) or an FP accumulator
  int unit_log2;           // value of one unit: 2^unit_log2 (E2M1 products: 2^-2)
  int64_t p_max, p_odd;    // largest product and largest odd product, in units
  uint8_t max_a, max_b, odd_a, odd_b;  // operand bytes realising them
};

// D of a 1 x 1 x K chain: k_big copies of (max_a, max_b), one (odd_a, odd_b), zeros after.
uint32_t chain(const Case& c, int64_t k_big) {
  const mma::InstructionSpec& spec = mma::instruction(mma::arch(c.arch), c.op);
  const size_t k = size_t((k_big + 1 + spec.k - 1) / spec.k) * size_t(spec.k);
  std::vector<uint8_t> a(k, 0), b(k, 0);
  for (int64_t i = 0; i < k_big; ++i) {
    a[size_t(i)] = c.max_a;
    b[size_t(i)] = c.max_b;
  }
  a[size_t(k_big)] = c.odd_a;
  b[size_t(k_big)] = c.odd_b;
  return mma::gemm(spec, {1, 1, k, a, b, {}, {}, {}}, {.threads = 1, .allow_fast_path = c.integer})[0];
}

bool chain_exact(const Case& c, int64_t k_big) {
  const uint32_t d = chain(c, k_big);
  const long double exact = (static_cast<long double>(k_big) * c.p_max + c.p_odd) * std::ldexp(1.0L, c.unit_log2);
  if (c.integer) return static_cast<long double>(int32_t(d)) == exact;
  return static_cast<long double>(std::bit_cast<float>(d)) == exact;
}

// FP: the significant bits an accumulator keeps for an integer sum: its output precision, or the
// fraction bits kept after alignment plus one where those are fewer (wgmma, Ada's FP8: 14).
int capacity_bits(const mma::InstructionSpec& s) {
  const int out = s.block.output_fraction_bits + 1;
  return s.block.fraction_bits == mma::FusedBlock::kExact ? out : std::min(s.block.fraction_bits + 1, out);
}

Result exact_k(const Case& c) {
  Result r;
  const int cap_bits = capacity_bits(mma::instruction(mma::arch(c.arch), c.op));
  // Derivation. Integer: every sum fits while K * p_max <= INT32_MAX. FP: every reachable sum up
  // to 2^cap is an exactly representable integer (in units), and the sums above it stay below
  // 2^(cap+1) where only odd ones are not; the largest odd sum with K products is
  // (K - 1) p_max + p_odd, so the first K that can fail is the first with that sum above 2^cap.
  int64_t k_max;
  if (c.integer) {
    k_max = INT32_MAX / c.p_max;
  } else {
    k_max = ((int64_t{1} << cap_bits) - c.p_odd) / c.p_max + 1;
  }
  // Confirmation through the model: worst-case inputs at K = k_max exact, at k_max + 1 not.
  // The worst case is k - 1 largest products and one largest odd product (integers: all largest).
  const bool at_max = chain_exact(c, k_max - 1);
  const bool above = chain_exact(c, k_max);
  r.data = {{"k_max", k_max}, {"model_exact_at_k_max", at_max}, {"model_exact_at_k_max_plus_1", above},
            {"arch", c.arch}, {"op", c.op}};
  if (!c.integer) r.data["capacity_bits"] = cap_bits;
  if (at_max && !above) {
    r.status = Status::Proved;
  } else {
    r.status = Status::Refuted;
    r.detail = "the model disagrees with the derivation at K = " + std::to_string(at_max ? k_max + 1 : k_max);
  }
  return r;
}

Result int32_bound() {
  Result r;
  nlohmann::json rows = nlohmann::json::array();
  const auto& moduli = schemes::int8_moduli();
  int64_t largest_residue = 0;
  for (size_t n = 1; n <= moduli.size(); ++n) {
    const int64_t m = moduli[n - 1];
    largest_residue = std::max(largest_residue, m % 2 == 0 ? m / 2 : (m - 1) / 2);  // balanced: -m/2 for even m
    if (n < 2) continue;
    const int64_t product = largest_residue * largest_residue;
    rows.push_back({{"moduli", n}, {"largest_residue_product", product}, {"k_max", INT32_MAX / product}});
  }
  r.status = Status::Proved;
  r.data = {{"by_prefix", rows},
            {"gemmul8_claim_k_le_2^17", "fails: at K = 131072 all residues -128 (modulus 256) sum to 2^31, past INT32_MAX"}};
  return r;
}

// The operands of each scheme's low-precision GEMMs: the largest product and the largest odd one
// (in units), and operand bytes that realise them.
struct Operands {
  const char* family;
  const char* what;
  bool integer;
  int unit_log2;
  int64_t p_max, p_odd;
  uint8_t max_a, max_b, odd_a, odd_b;
};
const Operands kInt8Residues{"ozaki2_int8", "INT8 residue GEMMs (|r| <= 128)", true, 0, 16384, 16384, 0x80, 0x80, 0x80, 0x80};
const Operands kE4m3Limbs{"e4m3_int16", "e4m3 integer operands |x| <= 16 (the FP8 scheme's limbs)", false, 0, 256, 225,
                          0x58, 0x58, 0x57, 0x57};  // 16 and 15
const Operands kFp4Digits{"ozaki1_fp4", "FP4 base-13 digit GEMMs (e2m1 = digit / 2, |digit| <= 12)", false, -2, 144, 9,
                          0x7 << 2, 0x7 << 2, 0x3 << 2, 0x3 << 2};  // 6.0 and 1.5
// int8-on-fp4 and ozaki1-fp4 write greedy digits, at most 8 (int8_on_fp4.products): e2m1 4.0.
const Operands kGreedyDigits{"greedy_fp4_digits", "FP4 GEMMs of greedy base-13 digits (|digit| <= 8)", false, -2, 64, 9,
                             0x6 << 2, 0x6 << 2, 0x3 << 2, 0x3 << 2};

struct Instance {
  const Operands& operands;
  const char* suffix;  // the id's last part
  const char* arch;
  std::string op;
};

// Every modelled instruction each family of operands runs on.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    using namespace mma::op_name;
    const std::string s8 = mma_sync_int8(true, true), e4m3 = mma_sync_fp8("e4m3");
    const std::string f8f6f4_e4m3 = mma_sync_f8f6f4("e4m3"), f8f6f4_e2m1 = mma_sync_f8f6f4("e2m1");
    const std::string tc_e4m3 = tcgen05_f8f6f4("e4m3"), tc_e2m1 = tcgen05_f8f6f4("e2m1");
    const Instance instances[] = {
        {kInt8Residues, "sm_80", "sm_80", s8},
        {kInt8Residues, "sm_89", "sm_89", s8},
        {kInt8Residues, "sm_90", "sm_90", s8},
        {kInt8Residues, "sm_100", "sm_100", tcgen05_i8(true, true)},
        {kInt8Residues, "sm_120", "sm_120", s8},
        {kE4m3Limbs, "ideal", "ideal", e4m3},
        {kE4m3Limbs, "sm_89", "sm_89", e4m3},
        {kE4m3Limbs, "sm_90_mma_sync", "sm_90", e4m3},
        {kE4m3Limbs, "sm_90_wgmma", "sm_90", wgmma_fp8("e4m3")},
        {kE4m3Limbs, "sm_100", "sm_100", tc_e4m3},
        {kE4m3Limbs, "sm_120", "sm_120", f8f6f4_e4m3},
        {kFp4Digits, "sm_100", "sm_100", tc_e2m1},
        {kFp4Digits, "sm_120", "sm_120", f8f6f4_e2m1},
        {kGreedyDigits, "sm_100", "sm_100", tc_e2m1},
        {kGreedyDigits, "sm_120", "sm_120", f8f6f4_e2m1},
    };
    std::vector<Case> out;
    for (const Instance& i : instances) {
      const Operands& o = i.operands;
      out.push_back({std::string("exact_k.") + o.family + "." + i.suffix,
                     std::string(o.what) + " on " + i.arch + " " + i.op + " stay exact for K <= K_max", i.arch, i.op,
                     o.integer, o.unit_log2, o.p_max, o.p_odd, o.max_a, o.max_b, o.odd_a, o.odd_b});
    }
    return out;
  }();
  return all;
}


}  // namespace

std::vector<Theorem> int32_theorems() {
  return {{"int32.ozaki2_int8.k", "K * (largest balanced residue product) fits INT32 for K <= K_max, for every prefix of the INT8 moduli",
           "exact derivation", false, int32_bound}};
}

std::vector<Theorem> exact_k_theorems() {
  std::vector<Theorem> out;
  for (const Case& c : cases())
    out.push_back({c.id, c.statement, "exact derivation, confirmed at K_max and K_max + 1 through the MMA model",
                   false, [c] { return exact_k(c); }});
  return out;
}

}  // namespace ozref::proofs
