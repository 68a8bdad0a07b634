// The sliced exact product on the GPU (reference/exact/gpu_exact.hpp): the host finds the lines'
// extents and the plan (exact/gpu_exact_model.hpp's gpu_exact_setup); per band of rows of C, per
// depth block and slice pair, the kernels (exact_kernels.hpp) form the residues, cuBLASLt's int8
// GEMMs multiply them, Garner's algorithm rebuilds each element's integer and adds it at the
// pair's offset; one kernel rounds every element.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cmath>
#include <optional>

#include "common/decimal_text.hpp"
#include "common/error.hpp"
#include "common/phase_clock.hpp"
#include "exact/exact_kernels.hpp"
#include "exact/gpu_exact.hpp"
#include "exact/gpu_exact_model.hpp"
#include "exact/scaled_long_double.hpp"
#include "exact/staged_copies.hpp"
#include "gemm/gemm_by_op.hpp"
#include "gemm/int8_gemm.hpp"
#include "gemm/wgmma_gemm.hpp"
#include "mma/op_names.hpp"
#include "runtime/cuda_check.hpp"
#include "schemes/pipeline/gpu.hpp"

namespace ozref {
namespace {

using exact_element::CrtTables;
using device::DeviceArray;

size_t round_up4(size_t x) { return (x + 3) / 4 * 4; }

// ozref's wgmma kernel where this GPU issues it (sm_90: about twice cuBLASLt's INT8 rate at
// 16384, docs/exact.md); else cuBLASLt's int8 GEMM, or ozref's own mma.sync kernel from the first time
// cuBLASLt cannot be loaded or refuses the shape. Each gives the exact INT32 sums. `gemm` says which
// ran (and why).
void int8_gemm(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c, std::string& gemm) {
  if (gemm == "wgmma")
    return device::wgmma_gemm(device::WgmmaOp::S8S8, m, n, k, reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b_columns),
                              reinterpret_cast<uint32_t*>(c));
  if (gemm == "cuBLASLt") try {
      device::int8_gemm_cublaslt(m, n, k, a, b_columns, c, nullptr);
      return;
    } catch (const std::runtime_error& e) {
      gemm = std::string("mma.sync (cuBLASLt: ") + e.what() + ")";
    }
  device::int8_gemm_mma(m, n, k, a, b_columns, c);
}

// The GPU's memory for a band of h rows (A's part of it, its residues, the GEMM's int32 result, the
// residues of C, the accumulators, the rounded elements), and for what every band shares (B).
struct Footprint {
  size_t k, n, np, kp, count, words;
  double band(size_t h) const {
    const double hp = double(round_up4(h));
    return double(h) * k * 8 + double(count) * hp * kp + hp * np * 4 + double(count) * h * n + double(h) * n * (words * 8 + 25);
  }
  double shared() const { return double(k) * n * 8 + double(count) * np * kp + (64 << 20); }
};

// OZREF_EXACT_GPU_PANEL_ROWS: at most this many rows of C per panel, so that tests take the panels
// on products that fit (device/exact_gpu_tests.sh); unset: as many rows as fit.
size_t panel_rows_cap() {
  const char* text = std::getenv("OZREF_EXACT_GPU_PANEL_ROWS");
  if (!text) return 0;
  if (!decimal_integer_in(text, 1, size_t{1} << 40))
    throw InputError(std::string("OZREF_EXACT_GPU_PANEL_ROWS: expected a whole number of rows, at least 1, got '") + text + "'");
  return std::stoull(text);
}

// Times its scope into `seconds` and, for --timings, as `phase`. The device's work inside has
// finished when it ends (every launch synchronises; the GEMM loop ends with a synchronisation).
class Timed {
 public:
  Timed(Phase phase, double& seconds) : timer_(phase), seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~Timed() { seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  PhaseTimer timer_;
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

// Fills out's elements [first, first + count) from a downloaded chunk of the rounded arrays
// (host: nearest, fp32, residual_sig, residual_exp, flags, as round() writes them).
void store(ExactProduct& out, size_t first, size_t count, const std::vector<const void*>& host) {
  const auto* nearest = static_cast<const uint64_t*>(host[0]);
  const auto* fp32 = static_cast<const uint32_t*>(host[1]);
  const auto* rsig = static_cast<const uint64_t*>(host[2]);
  const auto* rexp = static_cast<const int32_t*>(host[3]);
  const auto* flags = static_cast<const uint8_t*>(host[4]);
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < count; ++e) {
    out.nearest[first + e] = std::bit_cast<double>(nearest[e]);
    out.nearest_fp32[first + e] = std::bit_cast<float>(fp32[e]);
    const long double residual = scaled_long_double(rsig[e], rexp[e]);
    out.residual[first + e] = flags[e] & 1 ? -residual : residual;
    out.residual_exact[first + e] = (flags[e] >> 1) & 1;
  }
}

}  // namespace

GpuExactProduct gpu_exact(const Matrix<double>& a, const Matrix<double>& b) {
  const schemes::GpuInfo info = schemes::gpu_info();
  if (!info.available) throw InputError(info.why_not);
  if (a.cols != b.rows) throw InputError("exact --device gpu: inner dimensions differ (A is " + std::to_string(a.rows) + "x" +
                                         std::to_string(a.cols) + ", B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols) + ")");
  const size_t m = a.rows, k = a.cols, n = b.cols;
  GpuExactProduct r;
  r.device = info.device;
  if (device::kernel_issues(mma::op_name::wgmma_int8(true, true))) r.gemm = "wgmma";
  GpuExactPhases& time = r.phases;
  ExactProduct& out = r.sliced.product;
  std::optional<Timed> setup(std::in_place, Phase::ProductSetup, time.setup);
  exact_parts::fill_canaries(out, m * n);
  out.rows = m, out.cols = n, out.depth = k;
  const exact_parts::Analysis an = exact_parts::analyse(a, b);
  GpuExactSetup g = gpu_exact_setup(an, k);
  g.plan.pairs = 0;
  setup.reset();
  const auto start = std::chrono::steady_clock::now();
  if (m * n != 0 && g.plan.moduli != 0) {
    const CrtTables& t = g.tables;
    const size_t np = round_up4(n), kp = round_up4(g.plan.depth_block), words = g.words;
    const Footprint f{k, n, np, kp, size_t(t.count), words};
    size_t free_bytes = 0, total_bytes = 0;
    OZREF_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const double budget = 0.85 * double(free_bytes) - f.shared();
    size_t h = m;
    if (const size_t cap = panel_rows_cap()) h = std::min(h, cap);
    while (h > 1 && f.band(h) > budget) h = (h + 1) / 2;
    if (f.band(h) > budget) throw InputError("exact --device gpu: B (" + std::to_string(k) + "x" + std::to_string(n) + ") and its residues exceed the GPU's memory");
    const size_t hp = round_up4(h);
    const int pow2_row = g.max_shift + 1;
    // Pinned buffers of 128 MiB, or what the largest copy needs (small products start faster).
    device::exact::StagedCopies copies(std::min(size_t{128} << 20, std::max({k * n * 8, h * k * 8, h * n * 25})));
    DeviceArray<uint64_t> d_b(k * n), d_a(h * k);
    {
      const Timed timed(Phase::DeviceCopies, time.upload);
      copies.upload(d_b.get(), b.data.data(), k * n * 8);
    }
    DeviceArray<int> d_row_low(g.row_low.data(), m), d_col_low(g.col_low.data(), n), d_any(2);
    DeviceArray<uint8_t> d_pow2(g.pow2.data(), g.pow2.size()), d_u(size_t(t.count) * h * n), d_flags(h * n);
    DeviceArray<int8_t> d_ra(size_t(t.count) * hp * kp), d_rb(size_t(t.count) * np * kp);
    DeviceArray<int32_t> d_c(hp * np), d_rexp(h * n);
    DeviceArray<uint64_t> d_acc(h * n * words), d_nearest(h * n), d_rsig(h * n);
    DeviceArray<uint32_t> d_fp32(h * n);
    for (size_t i0 = 0; i0 < m; i0 += h, ++r.panels) {
      const size_t rows = std::min(h, m - i0), rows_p = round_up4(rows);
      {
        const Timed timed(Phase::DeviceCopies, time.upload);
        copies.upload(d_a.get(), &a.data[i0 * k], rows * k * 8);
        OZREF_CUDA(cudaMemset(d_acc.get(), 0, rows * n * words * 8));
      }
      for (size_t block = 0; block < g.plan.depth_blocks; ++block) {
        const size_t k0 = block * g.plan.depth_block, kb = std::min(g.plan.depth_block, k - k0), kbp = round_up4(kb);
        for (int s = 0; s < g.plan.slices_a; ++s) {
          int any[2] = {0, 0};
          {
            const Timed timed(Phase::OperandResidues, time.residues);
            OZREF_CUDA(cudaMemset(d_any.get(), 0, 2 * sizeof(int)));
            device::exact::residues(d_a.get(), k, false, rows, rows_p, k0, kb, kbp, d_row_low.get() + i0, g.plan.width, s, t,
                                    d_pow2.get(), pow2_row, d_ra.get(), d_any.get());
            d_any.download(any);
          }
          if (!any[0]) continue;
          for (int sb = 0; sb < g.plan.slices_b; ++sb) {
            {
              const Timed timed(Phase::OperandResidues, time.residues);
              OZREF_CUDA(cudaMemset(d_any.get() + 1, 0, sizeof(int)));
              device::exact::residues(d_b.get(), n, true, n, np, k0, kb, kbp, d_col_low.get(), g.plan.width, sb, t, d_pow2.get(),
                                      pow2_row, d_rb.get(), d_any.get() + 1);
              d_any.download(any);
            }
            if (!any[1]) continue;
            ++g.plan.pairs;
            {
              const Timed timed(Phase::ResidueGemms, time.gemms);
              for (int q = 0; q < t.count; ++q) {  // one int8 GEMM per modulus, its int32 sums exact (K block < 2^17)
                int8_gemm(rows_p, np, kbp, d_ra.get() + size_t(q) * rows_p * kbp, d_rb.get() + size_t(q) * np * kbp, d_c.get(), r.gemm);
                device::exact::reduce(d_c.get(), rows, n, np, t.m[q], d_u.get() + size_t(q) * rows * n);
              }
              OZREF_CUDA(cudaDeviceSynchronize());
            }
            const Timed timed(Phase::Rebuild, time.crt);
            device::exact::crt(d_u.get(), rows * n, t, d_acc.get(), int(words), unsigned((s + sb) * g.plan.width));
          }
        }
      }
      {
        const Timed timed(Phase::Rebuild, time.round);
        device::exact::round(d_acc.get(), rows, n, int(words), d_row_low.get() + i0, d_col_low.get(),
                             {d_nearest.get(), d_fp32.get(), d_rsig.get(), d_rexp.get(), d_flags.get()});
      }
      const Timed timed(Phase::DeviceCopies, time.download);
      copies.download({{d_nearest.get(), 8}, {d_fp32.get(), 4}, {d_rsig.get(), 8}, {d_rexp.get(), 4}, {d_flags.get(), 1}}, rows * n,
                      [&](size_t first, size_t len, const std::vector<const void*>& host) { store(out, i0 * n + first, len, host); });
    }
  } else {  // no nonzero product: every element an exact +0
    for (size_t e = 0; e < m * n; ++e) out.nearest[e] = 0, out.nearest_fp32[e] = 0, out.residual[e] = 0, out.residual_exact[e] = 1;
  }
  r.gpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    const Timed timed(Phase::Specials, time.specials);
    exact_parts::apply_specials(a, b, an, out);
  }
  out.moduli = g.plan.moduli ? g.tables.count : 0;
  out.panels = r.panels;
  r.sliced.plan = g.plan;
  return r;
}

}  // namespace ozref
