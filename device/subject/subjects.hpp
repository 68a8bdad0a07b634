// The GPU subjects of the runner (reference/schemes/pipeline/gpu.hpp), one per scheme family: each
// stage with a twin gets its inputs uploaded, its twin run, and its outputs downloaded into the
// arrays the runner allocated. gpu_subject.cpp dispatches by scheme.
#pragma once
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "runtime/cuda_check.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes {

// ozaki2-int8, ozaki2-fp8, ozaki2-fp4 (real and complex) and what rare shares with ozaki2-int8 (ozaki2_subject.cpp).
std::set<std::string> ozaki2_twin_names(const Scheme& scheme);
std::unique_ptr<Subject> make_ozaki2_subject(const Scheme& scheme, const GpuOptions& options);
// ozaki1-int8 (both slicings, every accumulation) and ozaki1-fp4, real and complex (ozaki1_subject.cpp).
std::set<std::string> ozaki1_twin_names(const Scheme& scheme);
std::unique_ptr<Subject> make_ozaki1_subject(const Scheme& scheme, const GpuOptions& options);
// int8-on-fp4 (int8_on_fp4_subject.cpp).
std::set<std::string> int8_on_fp4_twin_names(const Scheme& scheme);
std::unique_ptr<Subject> make_int8_on_fp4_subject(const Scheme& scheme, const GpuOptions& options);

// A CPU stage's name (its class's kName), as the twins and the runner key stages.
inline std::string stage_name(std::string_view name) { return std::string(name); }

// The Setup its stages share, from a scheme's first stage.
template <typename Setup>
const Setup& scheme_setup(const Scheme& scheme) {
  const auto* stage = dynamic_cast<const SchemeStage<Setup>*>(scheme.stages.front().get());
  if (!stage) throw std::logic_error("gpu subject: " + scheme.name + " has another family's stages");
  return stage->setup();
}

// An input array on the device.
template <typename T>
device::DeviceArray<T> upload(const Arrays& in, std::string_view stage, std::string_view array) {
  const Tensor& t = in.get({stage, array});
  return device::DeviceArray<T>(t.as<T>(), t.elements());
}

// The device array's canary must be the host array's, so that an element no kernel wrote reads as
// never written in the comparison (ArrayDifference::unwritten).
template <typename T>
void download(const device::DeviceArray<T>& d, Arrays& out, const Stage& s, std::string_view array) {
  Tensor& t = out.get(s.ref(array));
  if (t.elements() != d.size()) throw std::logic_error("gpu subject: " + std::string(s.name()) + "." + std::string(array) + " size differs");
  if (device::device_canary<T>() != canary_byte(t.dtype()))
    throw std::logic_error("gpu subject: " + std::string(s.name()) + "." + std::string(array) + " has another canary on the device");
  d.download(t.as<T>());
}

// A fault planted for tests of the lockstep itself ("<stage>.<array>", when it names this stage):
// the lowest byte of the array's middle element + 1.
inline void plant_fault(const std::string& fault, const Stage& s, Arrays& out) {
  if (fault.empty() || fault.substr(0, fault.find('.')) != s.name()) return;
  Tensor& t = out.get(s.ref(fault.substr(fault.find('.') + 1)));
  t.raw()[t.elements() / 2 * dtype_size(t.dtype())] += 1;
}

// `names` less the twin OZREF_GPU_DISABLE_TWIN names (gpu.hpp), if any.
inline std::set<std::string> without_disabled_twin(std::set<std::string> names) {
  if (const char* stage = std::getenv("OZREF_GPU_DISABLE_TWIN")) names.erase(stage);
  return names;
}

// What every GPU subject shares: it provides the stages its family's twin names list, runs the
// twin its constructor registered under the stage's name, records what the device ran for it
// (device_run.hpp) and plants the test fault of GpuOptions.
class TwinSubject : public Subject {
 public:
  TwinSubject(std::set<std::string> names, std::string fault) : names_(without_disabled_twin(std::move(names))), fault_(std::move(fault)) {}
  std::string name() const override { return "gpu"; }
  bool provides(const Stage& s) const override { return names_.count(std::string(s.name())) != 0; }
  bool follows_rounding_order() const override { return true; }  // the twins keep the CPU's order of operations
  bool computes_from_inputs() const override { return true; }
  bool canary_filled() const override { return true; }  // DeviceArray's canary, checked in download()
  void compute(const Stage& s, const Arrays& in, Arrays& out) override {
    device::device_run() = {};
    twins_.at(std::string(s.name()))(s, in, out);
    GpuStageRun& ran = ran_[std::string(s.name())];
    for (const auto& [where, count] : device::device_run().launches) ran.launches[where] += count;
    for (const auto& [gemm, count] : device::device_run().gemms) ran.gemms[gemm] += count;
    plant_fault(fault_, s, out);
  }
  const std::map<std::string, GpuStageRun>& ran() const { return ran_; }

 protected:
  using Twin = std::function<void(const Stage&, const Arrays&, Arrays&)>;
  std::map<std::string, Twin> twins_;

 private:
  std::set<std::string> names_;
  std::string fault_;
  std::map<std::string, GpuStageRun> ran_;
};

}  // namespace ozref::schemes
