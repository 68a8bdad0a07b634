#include "api/mma_lockstep.hpp"

#include <omp.h>

#include <cstring>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "mma/gemm.hpp"
#include "mma/gpu_mma.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "schemes/pipeline/reproducer.hpp"

namespace ozref::api {
namespace {

// Rows of k bytes as rows of k_model bytes, zeros after k.
std::vector<uint8_t> padded(const std::vector<uint8_t>& x, size_t rows, size_t k, size_t k_model) {
  std::vector<uint8_t> out(rows * k_model, 0);
  for (size_t r = 0; r < rows; ++r) std::memcpy(&out[r * k_model], &x[r * k], k);
  return out;
}

// The model's output: K padded with zeros to the instruction's K, C +0.
std::vector<uint32_t> model_output(const mma::InstructionSpec& s, const MmaLockstepOptions& o, const MmaLockstep& r) {
  // Named: GemmOperands holds spans, which must not view temporaries.
  const std::vector<uint8_t> a = padded(r.a, o.m, o.k, r.k_model), b = padded(r.b, o.n, o.k, r.k_model);
  mma::GemmOperands x;
  x.m = o.m, x.n = o.n, x.k = r.k_model, x.a = a, x.b = b;
  return mma::gemm(s, x, {.threads = o.threads});
}

int64_t element(const mma::InstructionSpec& s, bool b_side, uint8_t byte) {
  return (b_side ? s.b_signed : s.a_signed) ? static_cast<int8_t>(byte) : byte;
}

// Integer: outputs whose exact sum leaves the INT32 range (wrapped or clamped). Float: outputs
// that differ from the ideal accumulator's (the exact sum rounded once).
size_t count_inexact(const mma::InstructionSpec& s, const MmaLockstepOptions& o, const MmaLockstep& r) {
  size_t count = 0;
  if (s.kind == mma::Kind::Integer) {
#pragma omp parallel for reduction(+ : count) num_threads(o.threads > 0 ? o.threads : omp_get_max_threads())
    for (size_t i = 0; i < o.m; ++i)
      for (size_t j = 0; j < o.n; ++j) {
        int64_t sum = 0;
        for (size_t kk = 0; kk < o.k; ++kk) sum += element(s, false, r.a[i * o.k + kk]) * element(s, true, r.b[j * o.k + kk]);
        count += sum < INT32_MIN || sum > INT32_MAX;
      }
    return count;
  }
  const std::vector<uint32_t> exact = model_output(mma::instruction(mma::arch("ideal"), s.op), o, r);
  for (size_t i = 0; i < exact.size(); ++i) count += exact[i] != r.cpu[i];
  return count;
}

template <typename T>
NpyArray array_of(const std::vector<T>& v, DType dtype, size_t rows, size_t cols) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = {rows, cols};
  a.data.resize(v.size() * sizeof(T));
  std::memcpy(a.data.data(), v.data(), a.data.size());
  return a;
}

// DIR/a.npy, b.npy (u1: A's rows, B's columns), gpu.npy and cpu.npy (u4: D), and a reproducer of
// the first differing output (DIR/reproducers/gemm, for `ozref mma-check --gemm`).
void dump(const MmaLockstepOptions& o, const MmaLockstep& r) {
  write_npy(o.dump + "/a.npy", array_of(r.a, DType::U1, o.m, o.k));
  write_npy(o.dump + "/b.npy", array_of(r.b, DType::U1, o.n, o.k));
  write_npy(o.dump + "/gpu.npy", array_of(r.gpu, DType::U4, o.m, o.n));
  write_npy(o.dump + "/cpu.npy", array_of(r.cpu, DType::U4, o.m, o.n));
  if (r.mismatched == 0) return;
  const size_t i = r.first / o.n, j = r.first % o.n;
  schemes::GemmElement e{r.spec->op, std::vector<uint8_t>(r.k_model, 0), std::vector<uint8_t>(r.k_model, 0), 0};
  std::memcpy(e.a.data(), &r.a[i * o.k], o.k), std::memcpy(e.b.data(), &r.b[j * o.k], o.k);
  Tensor gpu(DType::U4, {o.m, o.n}), cpu(DType::U4, {o.m, o.n});
  std::memcpy(gpu.raw(), r.gpu.data(), gpu.bytes()), std::memcpy(cpu.raw(), r.cpu.data(), cpu.bytes());
  prepare_output_folder(o.dump + "/reproducers", "--dump");
  schemes::write_reproducer(o.dump + "/reproducers", "gemm", "d", "[i " + std::to_string(i) + ", j " + std::to_string(j) + "]", e, gpu, cpu,
                            r.first);
}

}  // namespace

MmaLockstep mma_lockstep(const MmaLockstepOptions& o) {
  MmaLockstep r;
  const mma::InstructionSpec& s = mma::instruction(mma::arch(o.arch), o.op);
  r.spec = &s;
  r.inexact_means = s.kind == mma::Kind::Integer ? "exact sum outside INT32 (wrapped or clamped)" : "differ from the exact sum rounded once";
  if (!mma::one_byte_per_element(s))
    throw InputError("lockstep --op: '" + s.op + "' has no GPU kernel here (the MMA level takes one byte per element)");
  if (!o.dump.empty()) prepare_output_folder(o.dump, "--dump");
  const schemes::GpuInfo gpu = schemes::gpu_info();
  if (!gpu.available) {
    r.why_not = gpu.why_not;
    return r;
  }
  r.k_model = (o.k + s.k - 1) / s.k * s.k;
  Rng rng(o.seed);
  r.a = mma::random_operand(s, false, o.m, o.k, o.dist, rng);
  r.b = mma::random_operand(s, true, o.n, o.k, o.dist, rng);
  r.gpu = mma::gpu_gemm(s.op, o.m, o.n, o.k, r.a, r.b);
  r.cpu = model_output(s, o, r);
  for (size_t i = r.gpu.size(); i-- > 0;)
    if (r.gpu[i] != r.cpu[i]) ++r.mismatched, r.first = i;
  r.inexact = count_inexact(s, o, r);
  r.device = gpu.device;
  if (!o.dump.empty()) dump(o, r);
  return r;
}

nlohmann::json mma_lockstep_json(const MmaLockstepOptions& o, const MmaLockstep& r) {
  nlohmann::json j = {{"op", r.spec->op}, {"arch", o.arch}, {"m", o.m}, {"n", o.n}, {"k", o.k}, {"dist", to_string(o.dist)}, {"seed", o.seed},
                      {"device", r.device}, {"outputs", r.gpu.size()}, {"mismatched", r.mismatched}, {"identical", r.mismatched == 0},
                      {"inexact", r.inexact}, {"inexact_means", r.inexact_means}};
  if (r.mismatched)
    j["first_mismatch"] = {{"row", r.first / o.n}, {"col", r.first % o.n}, {"gpu", to_hex32(r.gpu[r.first])}, {"cpu", to_hex32(r.cpu[r.first])}};
  return j;
}

}  // namespace ozref::api
