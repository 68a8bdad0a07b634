#include "cli/mma_lockstep.hpp"

#include <omp.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"
#include "mma/gemm.hpp"
#include "mma/gpu_mma.hpp"
#include "mma/operand_distributions.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "schemes/pipeline/reproducer.hpp"

namespace ozref::cli {
namespace {

struct MmaRun {
  size_t m = 0, n = 0, k = 0, k_model = 0;  // k_model: K padded to the instruction's K with zeros
  std::vector<uint8_t> a, b;                // m rows and n columns of k bytes
  std::vector<uint32_t> gpu, cpu;
  size_t mismatched = 0, first = 0;  // first: the flat index of the first mismatch
  size_t inexact = 0;                // outputs where the model is not the exact result (see note_of)
};

// Rows of k bytes as rows of k_model bytes, zeros after k.
std::vector<uint8_t> padded(const std::vector<uint8_t>& x, size_t rows, size_t k, size_t k_model) {
  std::vector<uint8_t> out(rows * k_model, 0);
  for (size_t r = 0; r < rows; ++r) std::memcpy(&out[r * k_model], &x[r * k], k);
  return out;
}

// The model's operands: K padded with zeros to the instruction's K, C +0.
mma::GemmOperands model_operands(const MmaRun& r, const std::vector<uint8_t>& a_padded, const std::vector<uint8_t>& b_padded) {
  mma::GemmOperands x;
  x.m = r.m, x.n = r.n, x.k = r.k_model, x.a = a_padded, x.b = b_padded;
  return x;
}

int64_t element(const mma::InstructionSpec& s, bool b_side, uint8_t byte) {
  return (b_side ? s.b_signed : s.a_signed) ? static_cast<int8_t>(byte) : byte;
}

// Integer: outputs whose exact sum leaves the INT32 range (wrapped or clamped). Float: outputs
// that differ from the ideal accumulator's (the exact sum rounded once).
size_t count_inexact(const mma::InstructionSpec& s, const MmaRun& r, int threads) {
  size_t count = 0;
  if (s.kind == mma::Kind::Integer) {
#pragma omp parallel for reduction(+ : count) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (size_t i = 0; i < r.m; ++i)
      for (size_t j = 0; j < r.n; ++j) {
        int64_t sum = 0;
        for (size_t kk = 0; kk < r.k; ++kk) sum += element(s, false, r.a[i * r.k + kk]) * element(s, true, r.b[j * r.k + kk]);
        count += sum < INT32_MIN || sum > INT32_MAX;
      }
    return count;
  }
  const mma::InstructionSpec& ideal = mma::instruction(mma::arch("ideal"), s.op);
  const std::vector<uint8_t> a = padded(r.a, r.m, r.k, r.k_model), b = padded(r.b, r.n, r.k, r.k_model);
  const std::vector<uint32_t> exact = mma::gemm(ideal, model_operands(r, a, b), {.threads = threads});
  for (size_t i = 0; i < exact.size(); ++i) count += exact[i] != r.cpu[i];
  return count;
}

MmaRun run_both(const mma::InstructionSpec& s, const LockstepArgs& args, const mma::OperandDistribution& d) {
  MmaRun r;
  r.m = args.run.m, r.n = args.run.n, r.k = args.run.k;
  r.k_model = (r.k + s.k - 1) / s.k * s.k;
  Rng rng(args.run.seed);
  r.a = mma::random_operand(s, false, r.m, r.k, d, rng);
  r.b = mma::random_operand(s, true, r.n, r.k, d, rng);
  r.gpu = mma::gpu_gemm(s.op, r.m, r.n, r.k, r.a, r.b);
  const std::vector<uint8_t> a = padded(r.a, r.m, r.k, r.k_model), b = padded(r.b, r.n, r.k, r.k_model);
  r.cpu = mma::gemm(s, model_operands(r, a, b), {.threads = args.run.threads});
  for (size_t i = r.gpu.size(); i-- > 0;)
    if (r.gpu[i] != r.cpu[i]) ++r.mismatched, r.first = i;
  r.inexact = count_inexact(s, r, args.run.threads);
  return r;
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
void dump(const std::string& dir, const mma::InstructionSpec& s, const MmaRun& r) {
  write_npy(dir + "/a.npy", array_of(r.a, DType::U1, r.m, r.k));
  write_npy(dir + "/b.npy", array_of(r.b, DType::U1, r.n, r.k));
  write_npy(dir + "/gpu.npy", array_of(r.gpu, DType::U4, r.m, r.n));
  write_npy(dir + "/cpu.npy", array_of(r.cpu, DType::U4, r.m, r.n));
  if (r.mismatched == 0) return;
  const size_t i = r.first / r.n, j = r.first % r.n;
  schemes::GemmElement e{s.op, std::vector<uint8_t>(r.k_model, 0), std::vector<uint8_t>(r.k_model, 0), 0};
  std::memcpy(e.a.data(), &r.a[i * r.k], r.k), std::memcpy(e.b.data(), &r.b[j * r.k], r.k);
  Tensor gpu(DType::U4, {r.m, r.n}), cpu(DType::U4, {r.m, r.n});
  std::memcpy(gpu.raw(), r.gpu.data(), gpu.bytes()), std::memcpy(cpu.raw(), r.cpu.data(), cpu.bytes());
  prepare_output_folder(dir + "/reproducers", "--dump");
  schemes::write_reproducer(dir + "/reproducers", "gemm", "d", "[" + std::to_string(i) + ", " + std::to_string(j) + "]", e, gpu, cpu, r.first);
}

void report(std::ostream& out, const LockstepArgs& args, const std::string& arch, const mma::OperandDistribution& d, const std::string& device,
            const mma::InstructionSpec& s, const MmaRun& r) {
  const char* inexact_means = s.kind == mma::Kind::Integer ? "exact sum outside INT32 (wrapped or clamped)" : "differ from the exact sum rounded once";
  nlohmann::json j = {{"op", s.op}, {"arch", arch}, {"m", r.m}, {"n", r.n}, {"k", r.k}, {"dist", to_string(d)}, {"seed", args.run.seed},
                      {"device", device}, {"outputs", r.gpu.size()}, {"mismatched", r.mismatched}, {"identical", r.mismatched == 0},
                      {"inexact", r.inexact}, {"inexact_means", inexact_means}};
  if (r.mismatched) j["first_mismatch"] = {{"row", r.first / r.n}, {"col", r.first % r.n}, {"gpu", to_hex32(r.gpu[r.first])}, {"cpu", to_hex32(r.cpu[r.first])}};
  if (args.run.json) {
    out << json_text(j) << "\n";
    return;
  }
  out << "ozref lockstep: " << s.op << " on " << device << " against the " << arch << " model, " << r.m << "x" << r.n << "x" << r.k << " ("
      << to_string(d) << ", seed " << args.run.seed << ")\n\n"
      << "  outputs                 " << r.gpu.size() << "\n  bit-identical           " << r.gpu.size() - r.mismatched << "\n"
      << "  model not exact         " << r.inexact << " (" << inexact_means << ")\n";
  if (r.mismatched)
    out << "  first difference        [" << r.first / r.n << ", " << r.first % r.n << "]: gpu " << to_hex32(r.gpu[r.first]) << ", model " << to_hex32(r.cpu[r.first])
        << "\n";
  out << "\n  every output bit-identical: " << (r.mismatched == 0 ? "yes" : "NO") << "\n";
}

// The MMA level runs one GEMM: the options of a scheme run do not apply there.
void refuse_scheme_options(const std::vector<std::string>& given) {
  static const std::set<std::string> mma_level = {"--op", "--arch", "--m", "--n", "--k", "--dist", "--seed", "--json", "--dump", "--threads"};
  for (const std::string& name : given)
    if (!mma_level.count(name))
      throw InputError("lockstep --op without --scheme runs one GEMM through the instruction: " + name +
                       " does not apply (it takes --arch, --m, --n, --k, --dist, --seed, --dump, --json, --threads)");
}

}  // namespace

int run_mma_lockstep(const LockstepArgs& args, std::ostream& out) {
  refuse_scheme_options(args.given);
  const std::string arch = args.arch_given ? args.run.arch : "sm_90";
  const mma::InstructionSpec& s = mma::instruction(mma::arch(arch), args.run.op);
  const mma::OperandDistribution d = mma::parse_operand_distribution(args.dist_given ? args.run.dist : "encodings");
  if (!mma::one_byte_per_element(s))
    throw InputError("lockstep --op: '" + s.op + "' has no GPU kernel here (the MMA level takes one byte per element)");
  if (!args.run.dump.empty()) prepare_output_folder(args.run.dump, "--dump");
  const schemes::GpuInfo gpu = schemes::gpu_info();
  if (!gpu.available) {
    out << "ozref lockstep: " << gpu.why_not << "; the lockstep needs an sm_90 GPU (nothing was run)\n";
    return 77;
  }
  const MmaRun r = run_both(s, args, d);
  if (!args.run.dump.empty()) dump(args.run.dump, s, r);
  report(out, args, arch, d, gpu.device, s, r);
  return r.mismatched == 0 ? 0 : 1;
}

}  // namespace ozref::cli
