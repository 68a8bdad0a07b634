// The modular stages of the Ozaki-II pipeline: residues, split, gemm, reduce/recombine, and the
// 3M combination of a complex run.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <span>

#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

const char* plane_name(size_t planes, size_t p) {
  static const char* names[] = {"re", "im", "re+im"};
  return planes == 1 ? "" : names[p];
}

// A' mod m for an integer held in a double, apart from the extraction under test: int64
// remainders below 2^63 (where the bound keeps the scaled integers), fmod above.
int64_t remainder_of(double v, int64_t m) {
  return std::fabs(v) < 0x1p63 ? int64_t(v) % m : int64_t(std::fmod(v, double(m)));
}

// The product of a residue plane of A (m x k) and one of B stored by columns (n x k): the
// independent side of the full checks.
template <typename T>
void plane_product(const T* a, const T* bt, size_t m, size_t k, size_t n, std::vector<int64_t>& out) {
  out.assign(m * n, 0);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (size_t kk = 0; kk < k; ++kk) sum += int64_t{a[i * k + kk]} * bt[j * k + kk];
      out[i * n + j] = sum;
    }
}

// Planes of B's shape stored by columns (count planes of n x k), as (count, k, n) row-major
// elements of type To, for a trace.
template <typename To, typename V>
std::vector<To> rows_of_columns(const V& planes, size_t count, size_t k, size_t n) {
  std::vector<To> rows(planes.size());
  for (size_t q = 0; q < count; ++q)
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) rows[(q * k + kk) * n + j] = static_cast<To>(planes[(q * n + j) * k + kk]);
  return rows;
}

template <typename To, typename V>
std::vector<To> converted(const V& values) {
  return std::vector<To>(values.begin(), values.end());
}

// modular_products on the planes of one element type (P planes each side).
template <typename Plane>
Buffer<int16_t> products_of(Context& c, size_t P, const Plane& pa, const Plane& pb, const std::vector<std::pair<size_t, size_t>>& pairs,
                            const Converted& x, std::vector<int64_t>& correction) {
  const size_t N = c.N, m = c.m, k = c.k, n = c.n, Q = pairs.size();
  SchemeResult& r = c.r;
  // split: limb matrices in the order (modulus, limb, plane), B's by columns as its residues;
  // limb_base[t] is a modulus's first limb. Single-limb variants (int8, rare) have no split: their
  // GEMMs take the residue planes.
  const bool split = !c.int8;
  std::vector<size_t> limb_base(N + 1, 0), term_base(N + 1, 0);
  for (size_t t = 0; t < N; ++t) {
    limb_base[t + 1] = limb_base[t] + c.products[t]->limbs();
    term_base[t + 1] = term_base[t] + c.products[t]->terms().size();
  }
  const size_t L = limb_base[N];
  Buffer<int8_t> la(split ? L * P * m * k : 0), lb(split ? L * P * k * n : 0);
  auto limb_plane = [&](size_t t, size_t limb, size_t plane) { return (limb_base[t] + limb) * P + plane; };
  if (split) {
    StageClock clock(r, "split", c.cheap);
    // In parallel over the moduli, each checked into its own report, merged in order (a
    // deterministic report).
    auto split_all = [&](const auto& res, Buffer<int8_t>& limbs, size_t count, const char* name) {
      std::vector<StageReport> reports(N);
#pragma omp parallel for schedule(dynamic) num_threads(c.threads)
      for (size_t t = 0; t < N; ++t) {
        const ModularProduct& mp = *c.products[t];
        StageReport& report = reports[t];
        int8_t l[4];
        for (size_t pl = 0; pl < P; ++pl)
          for (size_t v = 0; v < count; ++v) {
            const int32_t value = res[(t * P + pl) * count + v];
            mp.split(value, l);
            for (size_t q = 0; q < mp.limbs(); ++q) {
              limbs[limb_plane(t, q, pl) * count + v] = l[q];
              if (c.cheap && !c.lowp.representable(l[q]))
                report.violate(std::string(name) + " limb " + std::to_string(l[q]) + " has no exact " + to_string(c.family.format) + " encoding");
            }
            if (c.cheap) {
              const std::string why = mp.check_split(value, l);
              if (!why.empty()) report.violate(std::string(name) + " " + mp.name() + ": " + why);
            }
          }
      }
      for (const StageReport& report : reports) clock.report().absorb(report);
    };
    split_all(pa, la, m * k, "A");
    split_all(pb, lb, k * n, "B");
    if (c.trace) {
      c.trace->add("split", "a", stage_array(DType::I1, {L * P, m, k}, la));
      c.trace->add("split", "b", stage_array(DType::I1, {L * P, k, n}, rows_of_columns<int8_t>(lb, L * P, k, n)));
    }
  }
  // gemm, then reduce / recombine, modulus by modulus: the balanced residue of each plane product,
  // (N, Q, m, n). The GEMM outputs are kept for every modulus only for a trace, in the order
  // (modulus, plane product, term); otherwise one modulus's stay in cache until they are reduced.
  const size_t G = term_base[N] * Q;
  const bool keep = c.trace != nullptr;
  size_t most_terms = 0;
  for (const auto& mp : c.products) most_terms = std::max(most_terms, mp->terms().size());
  auto slot = [&](size_t t, size_t q, size_t g) {
    return (keep ? term_base[t] * Q : 0) + q * c.products[t]->terms().size() + g;
  };
  std::vector<uint32_t> cg((keep ? G : most_terms * Q) * m * n), corr_raw(c.rare ? 2 * m * n : 0);
  Buffer<int16_t> cr(N * Q * m * n);
  StageLaps gemm_stage(r, "gemm", c.full), reduce_stage(r, c.int8 ? "reduce" : "recombine", c.cheap);
  auto issue = [&](const auto* a_op, const auto* b_op, bool b_columns, std::span<uint32_t> d, const std::string& label) {
    c.lowp.run_into(m, n, k, a_op, b_op, b_columns, c.threads, d);
    ++r.low_precision_gemms;
    if (!c.full) return;
    const size_t wrong = check_lowp_gemm(c.lowp, m, n, k, a_op, b_op, b_columns, d, label, gemm_stage.report());
    if (wrong) gemm_stage.report().note(label + ": " + std::to_string(wrong) + " of " + std::to_string(m * n) + " elements not exact");
  };
  std::vector<int64_t> exact;
  for (size_t t = 0; t < N; ++t) {
    const ModularProduct& mp = *c.products[t];
    const size_t terms = mp.terms().size();
    gemm_stage.time([&] {
      for (size_t q = 0; q < Q; ++q)
        for (size_t g = 0; g < terms; ++g) {
          const ProductTerm& term = mp.terms()[g];
          std::string label = "modulus " + std::to_string(c.moduli[t]);
          if (Q > 1) label += std::string(" product ") + plane_name(P, pairs[q].first);
          label += " GEMM " + std::to_string(g) + " (limbs " + std::to_string(term.a_limb) + "x" + std::to_string(term.b_limb) + ")";
          const std::span<uint32_t> d(&cg[slot(t, q, g) * m * n], m * n);
          if (split)
            issue(&la[limb_plane(t, term.a_limb, pairs[q].first) * m * k], &lb[limb_plane(t, term.b_limb, pairs[q].second) * k * n],
                  true, d, label);
          else
            issue(&pa[(t * P + pairs[q].first) * m * k], &pb[(t * P + pairs[q].second) * k * n], true, d, label);
        }
    });
    reduce_stage.time([&] {
      // The residues in parallel over blocks of elements; the checks after, in order (a
      // deterministic report).
      constexpr size_t kBlock = 16384;
      const size_t blocks = (m * n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) collapse(2) num_threads(c.threads)
      for (size_t q = 0; q < Q; ++q)
        for (size_t blk = 0; blk < blocks; ++blk) {
          const size_t v0 = blk * kBlock, len = std::min(kBlock, m * n - v0);
          const uint32_t* outputs[4];
          for (size_t g = 0; g < terms; ++g) outputs[g] = &cg[slot(t, q, g) * m * n + v0];
          mp.combine_all(c.lowp, outputs, len, &cr[(t * Q + q) * m * n + v0]);
        }
      const int64_t mod = mp.modulus();
      for (size_t q = 0; c.cheap && q < Q; ++q) {
        const int16_t* out = &cr[(t * Q + q) * m * n];
        for (size_t v = 0; v < m * n; ++v) {
          // Contract (cheap): balanced and congruent to the weighted sum of the GEMM outputs.
          const int32_t value = out[v];
          int64_t sum = 0;
          bool integral = true;
          for (size_t g = 0; g < terms; ++g) {
            const int64_t output = c.lowp.integer_output(cg[slot(t, q, g) * m * n + v]);
            integral = integral && output != kNotInteger;
            sum += mp.terms()[g].weight * (output % mod);
          }
          if (!integral || value < -(mod / 2) || value > (mod - 1) / 2 || (sum - value) % mod != 0)
            reduce_stage.report().violate(mp.name() + " C" + index3(t, v / n, v % n) + ": residue " + std::to_string(value) +
                                          (integral ? " is not the weighted sum of the GEMM outputs mod m" : " from a non-integer GEMM output"));
        }
        if (!c.full) continue;
        // Contract (full): equal to the residue of the product of the two residue planes,
        // computed straight from the residues (not from the limbs or the GEMM outputs).
        plane_product(&pa[(t * P + pairs[q].first) * m * k], &pb[(t * P + pairs[q].second) * k * n], m, k, n, exact);
        for (size_t v = 0; v < m * n; ++v)
          if (balanced_residue(exact[v], mod) != out[v])
            reduce_stage.report().violate(mp.name() + " C" + index3(t, v / n, v % n) + " = " + std::to_string(out[v]) +
                                          ", the product of the residues is " + std::to_string(balanced_residue(exact[v], mod)));
      }
    });
  }
  if (c.rare) {
    gemm_stage.time([&] {
      // The two correction GEMMs hi7_A q7_B and q7_A hi7_B (INT8, exact: K 127^2 < 2^31).
      const int8_t* ops[2][2] = {{x.hi_a.data(), x.q_b.data()}, {x.q_a.data(), x.hi_b.data()}};
      correction.assign(m * n, 0);
      for (size_t e = 0; e < 2; ++e) {
        const std::span<uint32_t> d(&corr_raw[e * m * n], m * n);
        issue(ops[e][0], ops[e][1], false, d, e ? "correction q7_A hi7_B" : "correction hi7_A q7_B");
        for (size_t v = 0; v < m * n; ++v) correction[v] += static_cast<int32_t>(d[v]);
      }
    });
  }
  if (c.trace) {
    c.trace->add("gemm", "c", stage_array(c.int8 ? DType::I4 : DType::F4, {G, m, n}, cg));
    if (c.rare) c.trace->add("gemm", "correction", stage_array(DType::I4, {2, m, n}, corr_raw));
    std::vector<size_t> shape = {N, m, n};
    if (Q > 1) shape.insert(shape.begin() + 1, Q);
    if (c.int8) c.trace->add("reduce", "c", stage_array(DType::I1, shape, converted<int8_t>(cr)));
    else c.trace->add("recombine", "c", stage_array(DType::I2, shape, cr));
  }
  return cr;
}

}  // namespace

Planes residues(Context& c, const Converted& x) {
  const size_t N = c.N;
  const bool complex = x.a.size() == 2;
  Planes p;
  p.count = complex ? 3 : 1;
  p.narrow = *std::max_element(c.moduli.begin(), c.moduli.end()) <= 256;
  StageClock clock(c.r, "residues", c.cheap);
  std::vector<const double*> a_parts, b_parts;
  for (const Matrix<double>& part : x.a) a_parts.push_back(part.data.data());
  for (const Matrix<double>& part : x.b) b_parts.push_back(part.data.data());
  // Each side as lines of k residues per plane (A's rows; B's columns, the layout of the GEMMs' B
  // operand), in pieces of kLen that stay in L1 while every modulus reads them. B's columns are
  // gathered kGroup at a time from its rows (one cache line per row).
  constexpr size_t kLen = 2048, kGroup = 8;
  const size_t k = c.k;
  auto fill = [&](const std::vector<const double*>& parts, size_t lines, bool columns, auto& out) {
    const size_t count = lines * k, groups = (lines + kGroup - 1) / kGroup, pieces = (k + kLen - 1) / kLen;
    out.resize(N * p.count * count);
#pragma omp parallel for schedule(static) collapse(2) num_threads(c.threads)
    for (size_t group = 0; group < groups; ++group)
      for (size_t piece = 0; piece < pieces; ++piece) {
        const size_t l0 = group * kGroup, l1 = std::min(lines, l0 + kGroup), k0 = piece * kLen, len = std::min(kLen, k - k0);
        thread_local std::vector<double> gathered;  // (part, line, element)
        thread_local std::vector<int16_t> residues;  // (part, modulus, element) of one line
        gathered.resize(2 * kGroup * kLen), residues.resize(3 * N * kLen);
        std::vector<double>& tile = gathered;
        std::vector<int16_t>& res = residues;
        if (columns)
          for (size_t s = 0; s < parts.size(); ++s)
            for (size_t kk = 0; kk < len; ++kk)
              for (size_t l = l0; l < l1; ++l) tile[(s * kGroup + l - l0) * kLen + kk] = parts[s][(k0 + kk) * lines + l];
        auto plane = [&](size_t s, size_t t) { return &res[(s * N + t) * len]; };
        for (size_t l = l0; l < l1; ++l) {
          for (size_t s = 0; s < parts.size(); ++s) {
            const double* in = columns ? &tile[(s * kGroup + l - l0) * kLen] : parts[s] + l * k + k0;
            if (!c.rare) {
              balanced_residues(in, len, c.moduli, plane(s, 0));
              continue;
            }
            for (size_t t = 0; t < N; ++t)  // fp64-emu's three-limb extraction
              for (size_t v = 0; v < len; ++v) plane(s, t)[v] = int16_t(rare::limb_residue(in[v], x.bits_eff, c.moduli[t]));
          }
          for (size_t t = 0; t < N; ++t) {
            if (complex)  // the re + im plane, formed in residue arithmetic as a kernel would
              for (size_t v = 0; v < len; ++v) plane(2, t)[v] = int16_t(balanced_residue(int64_t(plane(0, t)[v]) + plane(1, t)[v], c.moduli[t]));
            for (size_t pl = 0; pl < p.count; ++pl)
              std::copy(plane(pl, t), plane(pl, t) + len, &out[(t * p.count + pl) * count + l * k + k0]);
          }
        }
      }
  };
  if (p.narrow) fill(a_parts, c.m, false, p.a8), fill(b_parts, c.n, true, p.b8);
  else fill(a_parts, c.m, false, p.a16), fill(b_parts, c.n, true, p.b16);
  if (c.cheap) {
    // Contract: every plane in the balanced range and congruent to its integer (re + im: to the
    // sum of the two integers).
    auto check = [&](const std::vector<const double*>& parts, const auto& res, size_t lines, bool columns, const char* name) {
      const size_t count = lines * k;
#pragma omp parallel for schedule(static) num_threads(c.threads)
      for (size_t t = 0; t < N; ++t) {
        const int64_t m = c.moduli[t];
        for (size_t pl = 0; pl < p.count; ++pl)
          for (size_t v = 0; v < count; ++v) {
            const size_t line = v / k, kk = v % k, at = columns ? kk * lines + line : v;  // row-major in the input
            const int64_t got = res[(t * p.count + pl) * count + v];
            const int64_t rem = pl < 2 ? remainder_of(parts[pl][at], m) : remainder_of(parts[0][at], m) + remainder_of(parts[1][at], m);
            if (got < -(m / 2) || got > (m - 1) / 2 || (rem - got) % m != 0) {
#pragma omp critical(residue_violation)
              clock.report().violate(std::string(name) + index3(pl, columns ? kk : line, columns ? line : kk) + " " +
                                     plane_name(p.count, pl) + " residue " + std::to_string(got) + " mod " + std::to_string(m));
            }
          }
      }
    };
    p.visit([&](const auto& pa, const auto& pb) {
      check(a_parts, pa, c.m, false, "A'");
      check(b_parts, pb, c.n, true, "B'");
    });
  }
  if (c.trace) {
    std::vector<size_t> sa = {N, c.m, c.k}, sb = {N, c.k, c.n};
    if (complex) sa.insert(sa.begin() + 1, 3), sb.insert(sb.begin() + 1, 3);
    p.visit([&](const auto& pa, const auto& pb) {
      if (c.int8) {
        c.trace->add("residues", "a", stage_array(DType::I1, sa, converted<int8_t>(pa)));
        c.trace->add("residues", "b", stage_array(DType::I1, sb, rows_of_columns<int8_t>(pb, N * p.count, c.k, c.n)));
      } else {
        c.trace->add("residues", "a", stage_array(DType::I2, sa, converted<int16_t>(pa)));
        c.trace->add("residues", "b", stage_array(DType::I2, sb, rows_of_columns<int16_t>(pb, N * p.count, c.k, c.n)));
      }
    });
  }
  return p;
}

Buffer<int16_t> modular_products(Context& c, const Planes& p, const std::vector<std::pair<size_t, size_t>>& pairs,
                                 const Converted& x, std::vector<int64_t>& correction) {
  return p.visit([&](const auto& pa, const auto& pb) { return products_of(c, p.count, pa, pb, pairs, x, correction); });
}

Buffer<int16_t> combine_3m(Context& c, const Planes& p, const Buffer<int16_t>& products) {
  const size_t N = c.N, m = c.m, k = c.k, n = c.n, mn = m * n;
  Buffer<int16_t> out(N * 2 * mn);
  StageClock clock(c.r, "complex", c.full);
  std::vector<int64_t> rr, ii, ri, ir;
  for (size_t t = 0; t < N; ++t) {
    const int64_t mod = c.moduli[t];
    const int16_t* t1 = &products[(t * 3 + 0) * mn];
    const int16_t* t2 = &products[(t * 3 + 1) * mn];
    const int16_t* t3 = &products[(t * 3 + 2) * mn];
    for (size_t v = 0; v < mn; ++v) {
      out[(t * 2 + 0) * mn + v] = int16_t(balanced_residue(int64_t(t1[v]) - t2[v], mod));
      out[(t * 2 + 1) * mn + v] = int16_t(balanced_residue(int64_t(t3[v]) - t1[v] - t2[v], mod));
    }
    if (!c.full) continue;
    // Contract (full): the residues of Re = A_re B_re - A_im B_im and Im = A_re B_im + A_im B_re,
    // computed with the four products straight from the re and im residue planes (4M, not 3M).
    p.visit([&](const auto& pa, const auto& pb) {
      plane_product(&pa[(t * 3 + 0) * m * k], &pb[(t * 3 + 0) * k * n], m, k, n, rr);
      plane_product(&pa[(t * 3 + 1) * m * k], &pb[(t * 3 + 1) * k * n], m, k, n, ii);
      plane_product(&pa[(t * 3 + 0) * m * k], &pb[(t * 3 + 1) * k * n], m, k, n, ri);
      plane_product(&pa[(t * 3 + 1) * m * k], &pb[(t * 3 + 0) * k * n], m, k, n, ir);
    });
    for (size_t v = 0; v < mn; ++v) {
      const int32_t want_re = balanced_residue(rr[v] - ii[v], mod), want_im = balanced_residue(ri[v] + ir[v], mod);
      if (out[(t * 2) * mn + v] != want_re || out[(t * 2 + 1) * mn + v] != want_im)
        clock.report().violate("modulus " + std::to_string(mod) + " C" + index3(t, v / n, v % n) + " = (" +
                                  std::to_string(out[(t * 2) * mn + v]) + ", " + std::to_string(out[(t * 2 + 1) * mn + v]) +
                                  "), the 4M residues are (" + std::to_string(want_re) + ", " + std::to_string(want_im) + ")");
    }
  }
  if (c.trace) {
    if (c.int8) c.trace->add("complex", "c", stage_array(DType::I1, {N, 2, m, n}, converted<int8_t>(out)));
    else c.trace->add("complex", "c", stage_array(DType::I2, {N, 2, m, n}, out));
  }
  return out;
}

}  // namespace ozref::schemes::ozaki2
