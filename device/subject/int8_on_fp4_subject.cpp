// The GPU subject of int8-on-fp4 (subjects.hpp): twins of limbs and combine, and of gemm where
// ozref's kernel for its FP4 instruction runs on this GPU (sm_120a's mma.sync; on an H200 the
// gemm stays on the CPU model), read from the scheme's own Setup.
#include <functional>
#include <map>

#include "common/error.hpp"
#include "gemm/gemm_by_op.hpp"
#include "schemes/int8_on_fp4/stages.hpp"
#include "stages/int8_on_fp4/twins.hpp"
#include "stages/ozaki1/twins.hpp"
#include "stages/ozaki2/twins.hpp"
#include "subject/subjects.hpp"

namespace ozref::schemes {
namespace {

using device::DeviceArray;
namespace twins = device::int8_on_fp4;
namespace stage = int8_on_fp4;  // the CPU stages, whose names (kName) the twins take

const int8_on_fp4::Setup& setup_of(const Scheme& scheme) { return scheme_setup<int8_on_fp4::Setup>(scheme); }

class Int8OnFp4Subject final : public TwinSubject {
 public:
  Int8OnFp4Subject(const Scheme& scheme, const GpuOptions& o) : TwinSubject(int8_on_fp4_twin_names(scheme), o.fault), s_(setup_of(scheme)) {
    if (o.gemm == "cublaslt") throw InputError("lockstep: --gemm cublaslt runs INT8 GEMMs; int8-on-fp4 multiplies FP4 digits (use --gemm mma)");
    twins_ = {{stage_name(stage::Limbs::kName), [this](auto&... x) { limbs(x...); }},
              {stage_name(stage::Gemm::kName), [this](auto&... x) { gemm(x...); }},
              {stage_name(stage::Combine::kName), [this](auto&... x) { combine(x...); }}};
  }


 private:
  void limbs(const Stage& s, const Arrays& in, Arrays& out) {
    for (const char* side : {"a", "b"}) {
      const auto x = upload<double>(in, kInputStage, side);
      DeviceArray<int8_t> l(twins::kLimbs * x.size());
      twins::limbs(x.get(), x.size(), l.get());
      download(l, out, s, side);
    }
  }

  // The nine GEMMs A_i B_j (i outer) on E2M1 containers of the digits, B's planes by columns.
  void gemm(const Stage& s, const Arrays& in, Arrays& out) {
    const size_t mk = s_.m * s_.k, nk = s_.n * s_.k, mn = s_.m * s_.n;
    const auto la = upload<int8_t>(in, stage::Limbs::kName, "a"), lb = upload<int8_t>(in, stage::Limbs::kName, "b");
    DeviceArray<int8_t> columns(twins::kLimbs * nk);
    device::ozaki1::slice_columns({s_.m, s_.n, s_.k, twins::kLimbs}, lb.get(), columns.get());
    DeviceArray<uint8_t> ea(la.size()), eb(columns.size());
    device::ozaki2::to_e2m1(la.get(), la.size(), ea.get());
    device::ozaki2::to_e2m1(columns.get(), columns.size(), eb.get());
    DeviceArray<uint32_t> c(twins::kLimbs * twins::kLimbs * mn);
    for (size_t g = 0; g < twins::kLimbs * twins::kLimbs; ++g)
      device::gemm_by_op(s_.lowp.spec().op, s_.m, s_.n, s_.k, ea.get() + g / twins::kLimbs * mk, eb.get() + g % twins::kLimbs * nk, c.get() + g * mn);
    download(c, out, s, "c");
  }

  void combine(const Stage& s, const Arrays& in, Arrays& out) {
    const auto c = upload<uint32_t>(in, stage::Gemm::kName, "c");
    DeviceArray<int32_t> result(s_.m * s_.n);
    twins::combine(c.get(), s_.m * s_.n, result.get());
    download(result, out, s, "c");
  }

  const int8_on_fp4::Setup& s_;
};

}  // namespace

std::set<std::string> int8_on_fp4_twin_names(const Scheme& scheme) {
  std::set<std::string> names = {stage_name(stage::Limbs::kName), stage_name(stage::Combine::kName)};
  if (device::kernel_issues(setup_of(scheme).lowp.spec().op)) names.insert(stage_name(stage::Gemm::kName));
  return names;
}

std::unique_ptr<Subject> make_int8_on_fp4_subject(const Scheme& scheme, const GpuOptions& options) {
  return std::make_unique<Int8OnFp4Subject>(scheme, options);
}

}  // namespace ozref::schemes
