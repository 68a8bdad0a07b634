// The GPU subject of the Ozaki-II schemes: ozaki2-int8, ozaki2-fp8 and ozaki2-fp4 (real and
// complex), and the stages rare shares with ozaki2-int8 (subjects.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "common/error.hpp"
#include "gemm/gemm_by_op.hpp"
#include "gemm/int8_gemm.hpp"
#include "gemm/wgmma_gemm.hpp"
#include "mma/op_names.hpp"
#include "runtime/cuda_check.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "subject/subjects.hpp"
#include "stages/ozaki2/crt_tables.hpp"
#include "stages/ozaki2/limb_products.hpp"
#include "stages/ozaki2/twins.hpp"

namespace ozref::schemes {
namespace {

using device::DeviceArray;
namespace twins = device::ozaki2;
namespace stage = ozaki2;  // the CPU stages, whose names (kName) the twins take

const ozaki2::Setup& setup_of(const Scheme& scheme) { return scheme_setup<ozaki2::Setup>(scheme); }

// The stages of `scheme` with GPU twins: ozaki2-int8's, ozaki2-fp8's and ozaki2-fp4's (their scale
// in the fast and accurate modes; their GEMMs, bound's too, where ozref's kernels issue the
// scheme's instruction on this GPU: FP4's on sm_120 only; fp4's bound stays on the CPU), and those
// rare shares with ozaki2-int8 (its reduce is the same residue; its scale and round stay on the
// CPU).
}  // namespace

std::set<std::string> ozaki2_twin_names(const Scheme& scheme) {
  if (scheme.name != "ozaki2-int8" && scheme.name != "ozaki2-fp8" && scheme.name != "ozaki2-fp4" && scheme.name != "rare") return {};
  const ozaki2::Setup& setup = setup_of(scheme);
  const bool gemms = device::kernel_issues(setup.lowp.spec().op);
  if (setup.rare) {  // its double-double unscale adds the correction between hi + lo and the scaling
    std::set<std::string> names = {stage_name(stage::Residues::kName), stage_name(stage::Reduce::kReduce), stage_name(stage::CrtStage::kName)};
    if (setup.o.crt != CrtVariant::DoubleDouble) names.insert(stage_name(stage::Unscale::kName));
    if (gemms) names.insert({stage_name(stage::Gemm::kName), stage_name(stage::Correction::kName)});
    return names;
  }
  std::set<std::string> names = {stage_name(stage::Truncate::kName), stage_name(stage::Residues::kName), stage_name(stage::Complex::kName),
                                 stage_name(stage::CrtStage::kName), stage_name(stage::Unscale::kName)};
  if (setup.o.mode != ScalingMode::Gemmul8Fast) names.insert(stage_name(stage::Scale::kName));
  if (gemms) names.insert(stage_name(stage::Gemm::kName));
  if (setup.int8) {
    names.insert(stage_name(stage::Reduce::kReduce));
    if (gemms) names.insert(stage_name(stage::Bound::kName));
  } else {
    names.insert({stage_name(stage::Split::kName), stage_name(stage::Reduce::kRecombine)});
    // fp4's bound raises its operands to E2M1's grid: CPU
    if (gemms && setup.o.variant == Ozaki2Variant::Fp8) names.insert(stage_name(stage::Bound::kName));
  }
  return names;
}

namespace {

class Ozaki2Subject final : public TwinSubject {
 public:
  Ozaki2Subject(const Scheme& s, const GpuOptions& o)
      : TwinSubject(ozaki2_twin_names(s), o.fault), variant_(setup_of(s).o.variant), instruction_(setup_of(s).lowp.spec().op), options_(o),
        moduli_(setup_of(s).moduli), crt_(moduli_), mode_(setup_of(s).o.mode), dd_(setup_of(s).o.crt == CrtVariant::DoubleDouble) {
    if (variant_ == Ozaki2Variant::Fp8) limbs_ = twins::limb_products(Ozaki2Variant::Fp8, moduli_.size());
    if (variant_ == Ozaki2Variant::Fp4) {
      limbs_ = twins::limb_products(Ozaki2Variant::Fp4, moduli_.size());
      two_limb_tables_ = DeviceArray<int8_t>(2 * limbs_.table_pairs);
      twins::two_limb_tables(limbs_.products, two_limb_tables_.get());
    }
    const bool gaussian = setup_of(s).o.complex_product == ComplexProduct::Gaussian;
    shape_ = {s.m, s.n, s.k, s.parts, s.parts == 1 ? size_t{1} : gaussian ? size_t{2} : size_t{3}, moduli_.size()};
    words_ = twins::crt_words(crt_);
    device_moduli_ = DeviceArray<int64_t>(moduli_.data(), moduli_.size());
    if (gaussian) gaussian_ = twins::gaussian_constants_on_device(moduli_);
    twins_ = {{stage_name(stage::Bound::kName), [this](auto&... x) { bound(x...); }},
              {stage_name(stage::Scale::kName), [this](auto&... x) { scale(x...); }},
              {stage_name(stage::Truncate::kName), [this](auto&... x) { truncate(x...); }},
              {stage_name(stage::Residues::kName), [this](auto&... x) { residues(x...); }},
              {stage_name(stage::Gemm::kName), [this](auto&... x) { gemm(x...); }},
              {stage_name(stage::Reduce::kReduce), [this](auto&... x) { reduce(x...); }},
              {stage_name(stage::Complex::kName), [this](auto&... x) { complex(x...); }},
              {stage_name(stage::CrtStage::kName), [this](auto&... x) { crt(x...); }},
              {stage_name(stage::Unscale::kName), [this](auto&... x) { unscale(x...); }},
              {stage_name(stage::Correction::kName), [this](auto&... x) { correction(x...); }},
              {stage_name(stage::Split::kName), [this](auto&... x) { split(x...); }},
              {stage_name(stage::Reduce::kRecombine), [this](auto&... x) { recombine(x...); }}};
  }

  // --gemm wgmma-fused: reduce's twin multiplies the residues itself (fused_reduce).
  std::vector<ArrayRef> extra_inputs(const Stage& s) const override {
    if (options_.gemm != "wgmma-fused" || s.name() != stage::Reduce::kReduce) return {};
    return {{stage::Residues::kName, "a"}, {stage::Residues::kName, "b"}};  // views of static names, never of temporaries
  }

 private:
  void bound(const Stage& s, const Arrays& in, Arrays& out) {
    const auto a = upload<double>(in, kInputStage, "a"), b = upload<double>(in, kInputStage, "b");
    DeviceArray<int32_t> u(shape_.m), v(shape_.n);
    DeviceArray<int8_t> oa(shape_.m * shape_.k), ob(shape_.n * shape_.k);
    twins::bound_operands(shape_, fp8() ? 4 : 6, a.get(), b.get(), u.get(), v.get(), oa.get(), ob.get());
    download(u, out, s, "row_exp"), download(v, out, s, "col_exp"), download(oa, out, s, "a"), download(ob, out, s, "b");
    if (fp8()) {
      DeviceArray<uint32_t> c(shape_.m * shape_.n);
      lowp_gemm(e4m3(oa).get(), e4m3(ob).get(), c.get());
      download(c, out, s, "c");
    } else {
      DeviceArray<int32_t> c(shape_.m * shape_.n);
      int8_gemm(oa.get(), ob.get(), c.get());
      download(c, out, s, "c");
    }
  }

  void scale(const Stage& s, const Arrays& in, Arrays& out) {
    DeviceArray<int32_t> row(shape_.m), col(shape_.n);
    if (mode_ == ScalingMode::Accurate) {
      const auto u = upload<int32_t>(in, stage::Bound::kName, "row_exp"), v = upload<int32_t>(in, stage::Bound::kName, "col_exp");
      if (fp_limbs()) twins::scale_accurate(shape_, upload<float>(in, stage::Bound::kName, "c").get(), fp8() ? 0 : twins::kE2M1OutputExponent, u.get(), v.get(),
                                            log2_bound(), row.get(), col.get());
      else twins::scale_accurate(shape_, upload<int32_t>(in, stage::Bound::kName, "c").get(), u.get(), v.get(), log2_bound(), row.get(), col.get());
    } else if (mode_ == ScalingMode::Fast) {
      const auto a = upload<double>(in, kInputStage, "a"), b = upload<double>(in, kInputStage, "b");
      twins::scale_fast(shape_, a.get(), b.get(), log2_bound(), row.get(), col.get());
    } else {
      throw std::logic_error("gpu subject: no twin of the " + to_string(mode_) + " scaling");
    }
    download(row, out, s, "row_shift"), download(col, out, s, "col_shift");
  }

  void truncate(const Stage& s, const Arrays& in, Arrays& out) {
    const auto a = upload<double>(in, kInputStage, "a"), b = upload<double>(in, kInputStage, "b");
    const auto row = upload<int32_t>(in, stage::Scale::kName, "row_shift"), col = upload<int32_t>(in, stage::Scale::kName, "col_shift");
    DeviceArray<double> ta(a.size()), tb(b.size());
    twins::truncate(shape_, a.get(), b.get(), row.get(), col.get(), ta.get(), tb.get());
    download(ta, out, s, "a"), download(tb, out, s, "b");
  }

  void residues(const Stage& s, const Arrays& in, Arrays& out) {
    if (*std::max_element(moduli_.begin(), moduli_.end()) <= 256) residues_as<int8_t>(s, in, out);
    else residues_as<int16_t>(s, in, out);
  }

  template <typename R>  // int8 residues when every modulus is at most 256, as the CPU stage
  void residues_as(const Stage& s, const Arrays& in, Arrays& out) {
    const std::string_view from = variant_ == Ozaki2Variant::Rare ? stage::Round::kName : stage::Truncate::kName;
    const auto ta = upload<double>(in, from, "a"), tb = upload<double>(in, from, "b");
    DeviceArray<R> ra(shape_.N * shape_.P * shape_.m * shape_.k), rb(shape_.N * shape_.P * shape_.n * shape_.k);
    twins::residues(shape_, ta.get(), tb.get(), device_moduli_.get(), gaussian_.get(), ra.get(), rb.get());
    download(ra, out, s, "a"), download(rb, out, s, "b");
  }

  void split(const Stage& s, const Arrays& in, Arrays& out) {
    const size_t rows = limbs_.limb_base.back() * shape_.P;
    DeviceArray<int8_t> la(rows * shape_.m * shape_.k), lb(rows * shape_.n * shape_.k);
    if (variant_ == Ozaki2Variant::Fp4) {  // moduli of at most 169: int8 residues
      const auto ra = upload<int8_t>(in, stage::Residues::kName, "a"), rb = upload<int8_t>(in, stage::Residues::kName, "b");
      twins::split(shape_, ra.get(), rb.get(), limbs_.products, limbs_.limb_base, two_limb_tables_.get(), la.get(), lb.get());
    } else {
      const auto ra = upload<int16_t>(in, stage::Residues::kName, "a"), rb = upload<int16_t>(in, stage::Residues::kName, "b");
      twins::split(shape_, ra.get(), rb.get(), limbs_.products, limbs_.limb_base, la.get(), lb.get());
    }
    download(la, out, s, "a"), download(lb, out, s, "b");
  }

  void gemm(const Stage& s, const Arrays& in, Arrays& out) {
    if (fp_limbs()) return limb_gemm(s, in, out);
    const auto ra = upload<int8_t>(in, stage::Residues::kName, "a"), rb = upload<int8_t>(in, stage::Residues::kName, "b");
    const size_t Q = shape_.P, mk = shape_.m * shape_.k, nk = shape_.n * shape_.k, mn = shape_.m * shape_.n;
    DeviceArray<int32_t> c(shape_.N * Q * mn);
    for (size_t t = 0; t < shape_.N; ++t)
      for (size_t q = 0; q < Q; ++q)  // the plane products: plane q of A by plane q of B
        int8_gemm(ra.get() + (t * shape_.P + q) * mk, rb.get() + (t * shape_.P + q) * nk, c.get() + (t * Q + q) * mn);
    download(c, out, s, "c");
  }

  // Modulus t's GEMM g of plane product q multiplies A's limb a_limb of plane q by B's limb b_limb.
  void limb_gemm(const Stage& s, const Arrays& in, Arrays& out) {
    const auto la = lowp_operands(upload<int8_t>(in, stage::Split::kName, "a")), lb = lowp_operands(upload<int8_t>(in, stage::Split::kName, "b"));
    const size_t Q = shape_.P, mk = shape_.m * shape_.k, nk = shape_.n * shape_.k, mn = shape_.m * shape_.n;
    DeviceArray<uint32_t> c(limbs_.term_base.back() * Q * mn);
    for (size_t t = 0; t < shape_.N; ++t) {
      const std::vector<ProductTerm>& terms = limbs_.terms[t];
      for (size_t q = 0; q < Q; ++q)
        for (size_t g = 0; g < terms.size(); ++g) {
          const size_t a_row = limbs_.limb_base[t] + terms[g].a_limb, b_row = limbs_.limb_base[t] + terms[g].b_limb;
          lowp_gemm(la.get() + (a_row * Q + q) * mk, lb.get() + (b_row * Q + q) * nk, c.get() + ((limbs_.term_base[t] * Q) + q * terms.size() + g) * mn);
        }
    }
    download(c, out, s, "c");
  }

  // Small integers (limbs, bound operands) as the E4M3 bytes the FP8 kernel takes.
  static DeviceArray<uint8_t> e4m3(const DeviceArray<int8_t>& x) {
    DeviceArray<uint8_t> bytes(x.size());
    twins::to_e4m3(x.get(), x.size(), bytes.get());
    return bytes;
  }
  // Limbs as the scheme's GEMM operands: E4M3 bytes or (fp4) E2M1 containers.
  DeviceArray<uint8_t> lowp_operands(const DeviceArray<int8_t>& x) const {
    if (fp8()) return e4m3(x);
    DeviceArray<uint8_t> bytes(x.size());
    twins::to_e2m1(x.get(), x.size(), bytes.get());
    return bytes;
  }

  void recombine(const Stage& s, const Arrays& in, Arrays& out) {
    const auto c = upload<uint32_t>(in, stage::Gemm::kName, "c");
    DeviceArray<int16_t> r(shape_.N * shape_.P * shape_.m * shape_.n);
    twins::recombine(shape_, shape_.P, c.get(), limbs_.products, limbs_.term_base, r.get());
    download(r, out, s, "c");
  }

  void reduce(const Stage& s, const Arrays& in, Arrays& out) {
    if (options_.gemm == "wgmma-fused") return fused_reduce(s, in, out);
    const auto c = upload<int32_t>(in, stage::Gemm::kName, "c");
    DeviceArray<int16_t> r(c.size());
    twins::reduce(shape_, shape_.P, c.get(), device_moduli_.get(), r.get());
    download(r, out, s, "c");
  }

  // --gemm wgmma-fused: the residues' plane products on the wgmma kernel with the reduction in its
  // epilogue (wgmma_gemm_reduced, the bench's fused path), batches of planes per launch, held to
  // the CPU's reduce of the model's GEMMs.
  void fused_reduce(const Stage& s, const Arrays& in, Arrays& out) {
    const auto ra = upload<int8_t>(in, stage::Residues::kName, "a"), rb = upload<int8_t>(in, stage::Residues::kName, "b");
    const size_t planes = shape_.N * shape_.P, mk = shape_.m * shape_.k, nk = shape_.n * shape_.k, mn = shape_.m * shape_.n;
    DeviceArray<int16_t> r(planes * mn);
    for (size_t first = 0; first < planes; first += device::kMaxReducedPlanes) {
      std::vector<int64_t> plane_moduli;
      for (size_t p = first; p < std::min(planes, first + device::kMaxReducedPlanes); ++p) plane_moduli.push_back(moduli_[p / shape_.P]);
      device::wgmma_gemm_reduced(shape_.m, shape_.n, shape_.k, ra.get() + first * mk, rb.get() + first * nk, plane_moduli, r.get() + first * mn);
      device::record_gemm("wgmma_gemm_reduced " + mma::op_name::wgmma_int8(true, true));
    }
    download(r, out, s, "c");
  }

  void complex(const Stage& s, const Arrays& in, Arrays& out) {
    const auto products = upload<int16_t>(in, residue_stage(), "c");
    DeviceArray<int16_t> c(shape_.N * 2 * shape_.m * shape_.n);
    if (gaussian_.size()) twins::combine_gaussian(shape_, products.get(), device_moduli_.get(), gaussian_.get(), c.get());
    else twins::combine_3m(shape_, products.get(), device_moduli_.get(), c.get());
    download(c, out, s, "c");
  }

  void crt(const Stage& s, const Arrays& in, Arrays& out) {
    const auto r = upload<int16_t>(in, shape_.S == 2 ? stage::Complex::kName : residue_stage(), "c");
    const size_t count = shape_.S * shape_.m * shape_.n;
    const twins::CrtTables tables = twins::crt_tables(crt_);
    if (dd_) {
      DeviceArray<double> hi(count), lo(count);
      twins::crt_dd(shape_, r.get(), tables, hi.get(), lo.get());
      download(hi, out, s, "hi"), download(lo, out, s, "lo");
    } else {
      DeviceArray<int64_t> c(count * words_);
      twins::crt_exact(shape_, r.get(), tables, c.get());
      download(c, out, s, "c");
    }
  }

  void unscale(const Stage& s, const Arrays& in, Arrays& out) {
    const auto row = upload<int32_t>(in, stage::Scale::kName, "row_shift"), col = upload<int32_t>(in, stage::Scale::kName, "col_shift");
    DeviceArray<double> c(shape_.S * shape_.m * shape_.n);
    if (dd_) {
      const auto hi = upload<double>(in, stage::CrtStage::kName, "hi"), lo = upload<double>(in, stage::CrtStage::kName, "lo");
      twins::unscale_dd(shape_, hi.get(), lo.get(), row.get(), col.get(), c.get());
    } else {
      const auto words = upload<int64_t>(in, stage::CrtStage::kName, "c");
      DeviceArray<int32_t> correction;
      int exponent = 0;
      if (variant_ == Ozaki2Variant::Rare) {
        correction = upload<int32_t>(in, stage::Correction::kName, "c");
        exponent = in.data<int32_t>({stage::Scale::kName, "bits_eff"})[0] - 15;
      }
      twins::unscale_exact(shape_, words.get(), words_, row.get(), col.get(), variant_ == Ozaki2Variant::Rare ? correction.get() : nullptr, exponent, c.get());
    }
    download(c, out, s, "c");
  }

  // rare: hi7_A q7_B and q7_A hi7_B (B's planes by rows, transposed here for the GEMM).
  void correction(const Stage& s, const Arrays& in, Arrays& out) {
    const size_t mn = shape_.m * shape_.n;
    DeviceArray<int32_t> c(2 * mn);
    const char* planes[2][2] = {{"a_hi7", "b_q7"}, {"a_q7", "b_hi7"}};
    for (size_t e = 0; e < 2; ++e) {
      const Tensor& b = in.get({stage::Round::kName, planes[e][1]});
      std::vector<int8_t> columns(shape_.n * shape_.k);
      for (size_t kk = 0; kk < shape_.k; ++kk)
        for (size_t j = 0; j < shape_.n; ++j) columns[j * shape_.k + kk] = b.as<int8_t>()[kk * shape_.n + j];
      const auto a = upload<int8_t>(in, stage::Round::kName, planes[e][0]);
      const DeviceArray<int8_t> bt(columns.data(), columns.size());
      int8_gemm(a.get(), bt.get(), c.get() + e * mn);
    }
    download(c, out, s, "c");
  }

  // The GEMMs on ozref's kernel for the scheme's instruction, or on cuBLASLt's INT8 GEMM.
  void int8_gemm(const int8_t* a, const int8_t* b_columns, int32_t* c) {
    if (options_.gemm == "cublaslt") device::int8_gemm_cublaslt(shape_.m, shape_.n, shape_.k, a, b_columns, c, nullptr);
    else lowp_gemm(reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b_columns), reinterpret_cast<uint32_t*>(c));
  }
  void lowp_gemm(const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
    device::gemm_by_op(instruction_, shape_.m, shape_.n, shape_.k, a, b_columns, c);
  }

  bool fp8() const { return variant_ == Ozaki2Variant::Fp8; }
  bool fp_limbs() const { return fp8() || variant_ == Ozaki2Variant::Fp4; }  // limbs, FP32 GEMM outputs, recombine
  std::string_view residue_stage() const { return fp_limbs() ? stage::Reduce::kRecombine : stage::Reduce::kReduce; }
  double log2_bound() const { return std::log2(crt_.product().get_d()) - 2; }

  Ozaki2Variant variant_;
  std::string instruction_;
  GpuOptions options_;
  std::vector<int64_t> moduli_;
  Crt crt_;
  ScalingMode mode_;
  bool dd_;
  twins::Shape shape_;
  size_t words_ = 2;
  twins::LimbProducts limbs_;
  DeviceArray<int8_t> two_limb_tables_;  // fp4
  DeviceArray<int64_t> device_moduli_;
  DeviceArray<int32_t> gaussian_;  // a Gaussian complex product's constants; empty otherwise
};

}  // namespace

std::unique_ptr<Subject> make_ozaki2_subject(const Scheme& scheme, const GpuOptions& options) {
  if (scheme.options.contains("kblock"))
    throw InputError("lockstep: the GPU twins run one GEMM over all of K; --kblock describes a kernel's K-blocks (ozref run, verify-trace)");
  if (options.gemm == "cublaslt" && scheme.name == "ozaki2-fp8") throw InputError("lockstep: --gemm cublaslt runs INT8 GEMMs; ozaki2-fp8 takes --gemm mma");
  if (options.gemm == "wgmma-fused" && !device::kernel_issues(mma::op_name::wgmma_int8(true, true)))
    throw InputError("lockstep: --gemm wgmma-fused runs the wgmma kernel: sm_90 only");
  return std::make_unique<Ozaki2Subject>(scheme, options);
}

}  // namespace ozref::schemes
