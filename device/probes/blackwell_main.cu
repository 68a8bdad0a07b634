// mma_probe_blackwell: the zero-group probe (mxf4_cases.hpp) on a Blackwell GPU, one trace file
// per instruction: tcgen05.mma kind::mxf4nvf4 on sm_100 (B200, GB200; code for sm_100a) or
// mma.sync kind::mxf4nvf4 m16n8k64 on sm_120 (RTX PRO 6000 Blackwell, GeForce RTX 50; code for
// sm_120a). `ozref probe --out DIR --arch sm_100` (or sm_120) runs it and gives the verdict.
// Usage: mma_probe_blackwell OUT_DIR [seed]. Exit 77 when there is no GPU it has code for, 3 on
// a CUDA error or when an output was never written. Self-contained like mma_probe.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "blackwell_kernels.cuh"
#include "mxf4_cases.hpp"
#include "probe_tiles.hpp"
#include "probe_util.cuh"

namespace {

constexpr uint32_t kCanary = 0xA5A5A5A5u;

const char* file_name(int op) {
  static const char* names[probe::kMxf4OpCount] = {"mxf4nvf4_tcgen05_4x_ue8m0", "mxf4nvf4_tcgen05_4x_ue4m3",
                                                   "mxf4nvf4_mma_sync_2x_ue8m0", "mxf4nvf4_mma_sync_4x_ue4m3"};
  return names[op];
}

// Every tile of `t` as `op` on the device (D pre-filled with the canary): D, tile-major.
std::vector<uint32_t> run_tiles(int op, const probe::Tiles& t) {
  const probe::DeviceBuffer<uint8_t> a(t.a), b(t.b), sa(t.scale_a), sb(t.scale_b);
  const probe::DeviceBuffer<uint32_t> c(t.c), d(std::vector<uint32_t>(t.c.size(), kCanary));
  probe::launch_mxf4(op, t.count, a.ptr, b.ptr, sa.ptr, sb.ptr, c.ptr, d.ptr);
  probe::finish_launch();
  return d.copy_back(t.c.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mma_probe_blackwell OUT_DIR [seed]\n");
    return 2;
  }
  const std::string out = argv[1];
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : probe::kMxf4Seed;
  cudaDeviceProp prop{};
  if (!probe::first_device("mma_probe_blackwell", prop)) return 77;
  const std::string arch = probe::arch_name(prop);
  std::vector<int> ops;
  if (arch == "sm_100") ops = {probe::kTcgen05Vec4Ue8m0, probe::kTcgen05Vec4Ue4m3};
  if (arch == "sm_120") ops = {probe::kMmaSyncVec2Ue8m0, probe::kMmaSyncVec4Ue4m3};
  if (ops.empty()) {
    std::fprintf(stderr,
                 "mma_probe_blackwell: %s is %s; this program has code for sm_100 (tcgen05, built for sm_100a) and sm_120 "
                 "(mma.sync, built for sm_120a) only; nothing was run\n",
                 prop.name, arch.c_str());
    return 77;
  }
  std::printf("mma_probe_blackwell: %s (%s), seed %llu\n", prop.name, arch.c_str(), (unsigned long long)seed);
  for (int op : ops) {
    const probe::Mxf4Op& info = probe::mxf4_op(op);
    const probe::Tiles t = probe::zero_group_tiles(info, seed);
    const std::vector<uint32_t> d = run_tiles(op, t);
    size_t canaries = 0;
    if (!probe::write_and_report(out + "/" + file_name(op) + ".jsonl", info.ptx, t, d, arch, kCanary, canaries)) return 3;
    if (canaries) {
      std::fprintf(stderr, "mma_probe_blackwell: %zu outputs of %s were never written: its kernel did not run\n", canaries, info.ptx);
      return 3;
    }
  }
  return 0;
}
