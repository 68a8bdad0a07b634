// The GPU subject of ozaki1-int8 and ozaki1-fp4 (subjects.hpp): twins of stack, scale, slices, gemm
// (ozref's kernels on each slice pair's instruction, or cuBLASLt's INT8 GEMM for s8 slices; fp4's
// only where its Blackwell kernel runs), accumulate and unscale, read from the scheme's own Setup
// so that both sides slice, pair and weigh alike.
#include <cmath>
#include <functional>
#include <map>

#include "common/error.hpp"
#include "gemm/gemm_by_op.hpp"
#include "gemm/int8_gemm.hpp"
#include "schemes/ozaki1/setup.hpp"
#include "schemes/ozaki1/stages.hpp"
#include "stages/ozaki1/twins.hpp"
#include "stages/ozaki2/twins.hpp"
#include "subject/subjects.hpp"

namespace ozref::schemes {
namespace {

using device::DeviceArray;
namespace twins = device::ozaki1;
namespace stage = ozaki1;  // the CPU stages, whose names (kName) the twins take

const ozaki1::Setup& setup_of(const Scheme& scheme) { return scheme_setup<ozaki1::Setup>(scheme); }

twins::Slicing slicing_of(Ozaki1Variant v) {
  return v == Ozaki1Variant::Int8Cublas ? twins::Slicing::Cublas : v == Ozaki1Variant::Fp4 ? twins::Slicing::Fp4 : twins::Slicing::Ozimmu;
}

// The exact weight as two 64-bit words (fp4's 13^30 < 2^112; int8's at most 2^56).
twins::OutputWeight output_weight(const mpz_class& exact, double fp64) {
  twins::OutputWeight w;
  w.low = mpz_class(exact & mpz_class("0xFFFFFFFFFFFFFFFF")).get_ui();
  const mpz_class high = exact >> 64;
  if (high >= mpz_class(1) << 64) throw std::logic_error("ozaki1 accumulate twin: a weight wider than 128 bits");
  w.high = high.get_ui();
  w.fp64 = fp64;
  return w;
}

bool kernels_issue_every_pair(const ozaki1::Setup& s) {
  for (const auto& [sign, gemm] : s.gemms)
    if (!device::kernel_issues(gemm.spec().op)) return false;
  return true;
}

class Ozaki1Subject final : public TwinSubject {
 public:
  Ozaki1Subject(const Scheme& scheme, const GpuOptions& o)
      : TwinSubject(ozaki1_twin_names(scheme), o.fault), s_(setup_of(scheme)), options_(o), slicing_(slicing_of(s_.o.variant)), shape_{s_.m, s_.n, s_.k, s_.p} {
    if (o.gemm == "cublaslt" && slicing_ != twins::Slicing::Ozimmu)
      throw InputError("lockstep: --gemm cublaslt runs s8 x s8 GEMMs; " + scheme.name +
                       (slicing_ == twins::Slicing::Cublas ? " --slicing cublas mixes u8 slices" : " multiplies FP4 digits") + " (use --gemm mma)");
    twins_ = {{stage_name(stage::Stack::kName), [this](auto&... x) { stack(x...); }},
              {stage_name(stage::Scale::kName), [this](auto&... x) { scale(x...); }},
              {stage_name(stage::Slices::kName), [this](auto&... x) { slices(x...); }},
              {stage_name(stage::Gemm::kName), [this](auto&... x) { gemm(x...); }},
              {stage_name(stage::Accumulate::kName), [this](auto&... x) { accumulate(x...); }},
              {stage_name(stage::Unscale::kName), [this](auto&... x) { unscale(x...); }}};
  }


 private:
  void stack(const Stage& s, const Arrays& in, Arrays& out) {
    const size_t m = s_.m / 2, k = s_.k / 2, n = s_.n;
    const auto a = upload<double>(in, kInputStage, "a"), b = upload<double>(in, kInputStage, "b");
    DeviceArray<double> sa(4 * m * k), sb(2 * k * n);
    twins::stack(m, k, n, a.get(), b.get(), sa.get(), sb.get());
    download(sa, out, s, "a"), download(sb, out, s, "b");
  }

  void scale(const Stage& s, const Arrays& in, Arrays& out) {
    const auto a = upload<double>(in, s_.source(), "a"), b = upload<double>(in, s_.source(), "b");
    DeviceArray<int32_t> row(s_.m), col(s_.n);
    twins::scale(shape_, s_.sl.magnitude_bits(), a.get(), b.get(), row.get(), col.get());
    download(row, out, s, "row_shift"), download(col, out, s, "col_shift");
  }

  void slices(const Stage& s, const Arrays& in, Arrays& out) {
    const auto a = upload<double>(in, s_.source(), "a"), b = upload<double>(in, s_.source(), "b");
    const auto row = upload<int32_t>(in, stage::Scale::kName, "row_shift"), col = upload<int32_t>(in, stage::Scale::kName, "col_shift");
    DeviceArray<int8_t> sa(s_.p * s_.m * s_.k), sb(s_.p * s_.k * s_.n);
    twins::slices(shape_, slicing_, s_.sl.width(), a.get(), b.get(), row.get(), col.get(), sa.get(), sb.get());
    download(sa, out, s, "a"), download(sb, out, s, "b");
  }

  // Output q: the slice pair q, or (fused) the concatenated slices of t + u = q. INT32 outputs, or
  // FP32 (fp4: the digits as E2M1 containers).
  void gemm(const Stage& s, const Arrays& in, Arrays& out) {
    if (slicing_ == twins::Slicing::Fp4) gemm_as<uint32_t>(s, in, out);
    else gemm_as<int32_t>(s, in, out);
  }

  // C: int32_t for INT8 sums, uint32_t for FP32 patterns (the device array's canary is then the
  // host f4 array's: subjects.hpp's download).
  template <typename C>
  void gemm_as(const Stage& s, const Arrays& in, Arrays& out) {
    const auto sa = operands(upload<int8_t>(in, stage::Slices::kName, "a"));
    const auto sb = upload<int8_t>(in, stage::Slices::kName, "b");
    const size_t mk = s_.m * s_.k, nk = s_.n * s_.k, mn = s_.m * s_.n;
    DeviceArray<int8_t> columns(s_.p * nk);
    twins::slice_columns(shape_, sb.get(), columns.get());
    columns = operands(std::move(columns));
    DeviceArray<C> c(s_.outputs() * mn);
    for (size_t q = 0; q < s_.outputs(); ++q) {
      if (!s_.fused) {
        const auto [t, u] = s_.pairs[q];
        int8_gemm(s_.gemm_for(t, u).spec().op, s_.k, sa.get() + t * mk, columns.get() + u * nk, c.get() + q * mn);
        continue;
      }
      DeviceArray<int8_t> a_cat((q + 1) * mk), b_cat((q + 1) * nk);
      twins::concatenate(sa.get(), s_.m, s_.k, q, false, a_cat.get());
      twins::concatenate(columns.get(), s_.n, s_.k, q, true, b_cat.get());
      int8_gemm(s_.lead().spec().op, (q + 1) * s_.k, a_cat.get(), b_cat.get(), c.get() + q * mn);
    }
    download(c, out, s, "c");
  }

  DeviceArray<int8_t> operands(DeviceArray<int8_t> slices) const {
    if (slicing_ != twins::Slicing::Fp4) return slices;
    DeviceArray<int8_t> e2m1(slices.size());
    device::ozaki2::to_e2m1(slices.get(), slices.size(), reinterpret_cast<uint8_t*>(e2m1.get()));
    return e2m1;
  }

  template <typename C>
  void int8_gemm(const std::string& op, size_t depth, const int8_t* a, const int8_t* b_columns, C* c) {
    if (options_.gemm == "cublaslt") return device::int8_gemm_cublaslt(s_.m, s_.n, depth, a, b_columns, reinterpret_cast<int32_t*>(c), nullptr);
    device::gemm_by_op(op, s_.m, s_.n, depth, reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b_columns),
                       reinterpret_cast<uint32_t*>(c));
  }

  void accumulate(const Stage& s, const Arrays& in, Arrays& out) {
    std::vector<twins::OutputWeight> weights;
    for (size_t q = 0; q < s_.outputs(); ++q) {
      const size_t d = s_.fused ? q : s_.pairs[q].first + s_.pairs[q].second;
      weights.push_back(output_weight(s_.sl.weight(d), s_.sl.weight_fp64(d)));
    }
    const size_t words = s_.exact ? s_.words() : 0;
    const auto run = [&](void* sums) {
      if (slicing_ == twins::Slicing::Fp4) twins::accumulate(shape_, upload<uint32_t>(in, stage::Gemm::kName, "c").get(), weights, words, sums);
      else twins::accumulate(shape_, upload<int32_t>(in, stage::Gemm::kName, "c").get(), weights, words, sums);
    };
    if (s_.exact) {
      DeviceArray<int64_t> acc(s_.m * s_.n * words);
      run(acc.get());
      download(acc, out, s, "c");
    } else {
      DeviceArray<double> sum(s_.m * s_.n);
      run(sum.get());
      download(sum, out, s, "c");
    }
  }

  void unscale(const Stage& s, const Arrays& in, Arrays& out) {
    const auto row = upload<int32_t>(in, stage::Scale::kName, "row_shift"), col = upload<int32_t>(in, stage::Scale::kName, "col_shift");
    DeviceArray<double> c(s_.m * s_.n);
    if (s_.exact) twins::unscale_exact(shape_, upload<int64_t>(in, stage::Accumulate::kName, "c").get(), s_.words(), s_.sl.unit_exponent(), row.get(), col.get(), c.get());
    else twins::unscale_fp64(shape_, upload<double>(in, stage::Accumulate::kName, "c").get(), row.get(), col.get(), c.get());
    download(c, out, s, "c");
  }

  const ozaki1::Setup& s_;
  GpuOptions options_;
  twins::Slicing slicing_;
  twins::Shape shape_;
};

}  // namespace

std::set<std::string> ozaki1_twin_names(const Scheme& scheme) {
  const ozaki1::Setup& s = setup_of(scheme);
  std::set<std::string> names = {stage_name(stage::Stack::kName), stage_name(stage::Scale::kName), stage_name(stage::Slices::kName),
                                 stage_name(stage::Accumulate::kName), stage_name(stage::Unscale::kName)};
  if (kernels_issue_every_pair(s)) names.insert(stage_name(stage::Gemm::kName));
  return names;
}

std::unique_ptr<Subject> make_ozaki1_subject(const Scheme& scheme, const GpuOptions& options) {
  return std::make_unique<Ozaki1Subject>(scheme, options);
}

}  // namespace ozref::schemes
