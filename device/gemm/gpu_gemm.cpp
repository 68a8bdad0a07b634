// The GPU's GEMM by instruction name (gemm_by_op.hpp, reference/mma/gpu_mma.hpp): each op string
// the CPU model knows that ozref's kernels issue, mapped to its kernel and the GPUs it runs on.
#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <set>

#include "common/error.hpp"
#include "gemm/gemm_by_op.hpp"
#include "gemm/mma_sync_gemm.hpp"
#include "gemm/tcgen05_gemm.hpp"
#include "gemm/wgmma_gemm.hpp"
#include "mma/gpu_mma.hpp"
#include "mma/op_names.hpp"
#include "runtime/cuda_check.hpp"

namespace ozref::mma {
namespace {

// A kernel and the compute capabilities (90: sm_90a, ...) whose code the library holds for it.
struct Kernel {
  std::string name;  // what the stage's report says ran: "wgmma_gemm", ...
  std::function<void(size_t, size_t, size_t, const uint8_t*, const uint8_t*, uint32_t*)> run;
  std::set<int> runs_on;
};

const std::set<int> kEveryBuiltGpu = {90, 100, 120};  // device/CMakeLists.txt's architectures

Kernel mma_sync(device::MmaSyncOp op, std::set<int> runs_on = kEveryBuiltGpu) {
  return {"mma_sync_gemm", [op](size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b, uint32_t* c) { device::mma_sync_gemm(op, m, n, k, a, b, c); },
          std::move(runs_on)};
}
Kernel tcgen05(device::Tcgen05Op op) {  // sm_100a code only (sm_103 and later run none of it)
  return {"tcgen05_gemm", [op](size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b, uint32_t* c) { device::tcgen05_gemm(op, m, n, k, a, b, c); },
          {100}};
}
Kernel wgmma(device::WgmmaOp op) {
  return {"wgmma_gemm", [op](size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b, uint32_t* c) { device::wgmma_gemm(op, m, n, k, a, b, c); },
          {90}};
}

const std::map<std::string, Kernel>& kernels() {
  using device::MmaSyncOp, device::Tcgen05Op, device::WgmmaOp;
  static const std::map<std::string, Kernel> table = {
      {op_name::mma_sync_int8(true, true), mma_sync(MmaSyncOp::S8S8)},
      {op_name::mma_sync_int8(true, false), mma_sync(MmaSyncOp::S8U8)},
      {op_name::mma_sync_int8(false, true), mma_sync(MmaSyncOp::U8S8)},
      {op_name::mma_sync_int8(false, false), mma_sync(MmaSyncOp::U8U8)},
      {op_name::mma_sync_int8(true, true, true), mma_sync(MmaSyncOp::S8S8Sat)},
      {op_name::mma_sync_int8(true, false, true), mma_sync(MmaSyncOp::S8U8Sat)},
      {op_name::mma_sync_int8(false, true, true), mma_sync(MmaSyncOp::U8S8Sat)},
      {op_name::mma_sync_int8(false, false, true), mma_sync(MmaSyncOp::U8U8Sat)},
      {op_name::mma_sync_fp8("e4m3"), mma_sync(MmaSyncOp::E4M3)},
      {op_name::mma_sync_fp8("e5m2"), mma_sync(MmaSyncOp::E5M2)},
      {op_name::mma_sync_f8f6f4("e2m1"), mma_sync(MmaSyncOp::E2M1, {120})},
      {op_name::tcgen05_f8f6f4("e4m3"), tcgen05(Tcgen05Op::E4M3)},
      {op_name::tcgen05_f8f6f4("e5m2"), tcgen05(Tcgen05Op::E5M2)},
      {op_name::tcgen05_f8f6f4("e2m1"), tcgen05(Tcgen05Op::E2M1)},
      {op_name::tcgen05_i8(true, true), tcgen05(Tcgen05Op::S8)},
      {op_name::tcgen05_i8(false, false), tcgen05(Tcgen05Op::U8)},
      {op_name::tcgen05_i8(true, true, true), tcgen05(Tcgen05Op::S8Sat)},
      {op_name::tcgen05_i8(false, false, true), tcgen05(Tcgen05Op::U8Sat)},
      {op_name::wgmma_int8(true, true), wgmma(WgmmaOp::S8S8)},
      {op_name::wgmma_int8(true, false), wgmma(WgmmaOp::S8U8)},
      {op_name::wgmma_int8(false, true), wgmma(WgmmaOp::U8S8)},
      {op_name::wgmma_int8(false, false), wgmma(WgmmaOp::U8U8)},
      {op_name::wgmma_fp8("e4m3"), wgmma(WgmmaOp::E4M3)},
      {op_name::wgmma_fp8("e5m2"), wgmma(WgmmaOp::E5M2)},
  };
  return table;
}

}  // namespace
}  // namespace ozref::mma

namespace ozref::device {

namespace {

// This GPU's compute capability as 10 major + minor (90 for an H200), or -1 without one.
int current_sm() {
  static const int sm = [] {
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
      cudaGetLastError();  // clear it: no GPU is an answer here, not an error
      return -1;
    }
    return 10 * major + minor;
  }();
  return sm;
}

// The kernel for op, or an InputError saying why it cannot run on this GPU.
const mma::Kernel& kernel_here(const std::string& op) {
  const auto kernel = mma::kernels().find(op);
  if (kernel == mma::kernels().end()) throw InputError("lockstep: ozref's GPU kernels do not issue '" + op + "'");
  if (!kernel->second.runs_on.count(current_sm())) {
    std::string where;
    for (int sm : kernel->second.runs_on) where += (where.empty() ? "sm_" : ", sm_") + std::to_string(sm);
    throw InputError("lockstep: ozref's kernel for '" + op + "' runs on " + where + " only; this GPU is sm_" + std::to_string(current_sm()));
  }
  return kernel->second;
}

}  // namespace

bool kernel_issues(const std::string& op) {
  const auto kernel = mma::kernels().find(op);
  return kernel != mma::kernels().end() && kernel->second.runs_on.count(current_sm()) != 0;
}

void gemm_by_op(const std::string& op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
  const mma::Kernel& kernel = kernel_here(op);
  kernel.run(m, n, k, a, b_columns, c);
  record_gemm(kernel.name + " " + op);
}

}  // namespace ozref::device

namespace ozref::mma {

std::vector<std::string> gpu_instructions() {
  std::vector<std::string> ops;
  for (const auto& [op, kernel] : kernels()) ops.push_back(op);
  return ops;
}

std::vector<uint32_t> gpu_gemm(const std::string& op, size_t m, size_t n, size_t k, std::span<const uint8_t> a, std::span<const uint8_t> b_columns) {
  device::kernel_here(op);  // refuses an op no kernel of ozref runs on this GPU
  if (a.size() != m * k || b_columns.size() != n * k) throw InputError("lockstep: operand sizes do not agree with m, n, k");
  const device::DeviceArray<uint8_t> da(a.data(), a.size()), db(b_columns.data(), b_columns.size());
  device::DeviceArray<uint32_t> dc(m * n);
  dc.fill_bytes(0xA5);  // a canary no INT32 or FP32 output of the model is likely to equal (-1, 0xFF bytes, is a sum)
  device::gemm_by_op(op, m, n, k, da.get(), db.get(), dc.get());
  std::vector<uint32_t> d(m * n);
  dc.download(d.data());
  return d;
}

}  // namespace ozref::mma
