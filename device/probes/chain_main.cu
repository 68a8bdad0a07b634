// mma_chain: the exact_k boundary on the GPU. For each instruction of an exact_k theorem
// (proofs/exact_k.cpp), runs the worst-case chain of `ozref prove` on one tile: K_max - 1 (or
// K_max) copies of the largest product and one largest odd product, K in instruction steps, each
// step's D fed back as the next step's C, at K = K_max (where the derivation says the sum is still
// exact) and K = K_max + 1 (where it says it is not). Every step of element [0][0] is written as an
// MMA trace record (tag "chain:K=<K>:step=<s>"), so `ozref mma-check` replays the whole chain
// through the model bit for bit; a summary line per chain gives the final D and the exact sum.
// Usage: mma_chain OUT_DIR. Self-contained like mma_probe.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mma_kernels.cuh"
#include "probe_tiles.hpp"
#include "probe_util.cuh"

namespace {

struct Chain {
  const char* name;
  int op;
  long long k_max;
  uint8_t max_a, max_b, odd_a, odd_b;  // operand bytes of the largest and the largest odd product
  long long p_max, p_odd;              // their values
};

// The cases of proofs/exact_k.cpp that sm_90 runs (e4m3 value bytes: 0x58 = 16, 0x57 = 15).
const Chain kChains[] = {
    {"int8_s8s8", probe::kS8S8, 131071, 0x80, 0x80, 0x80, 0x80, 16384, 16384},
    {"fp8_e4m3_mma_sync", probe::kE4M3, 65536, 0x58, 0x58, 0x57, 0x57, 256, 225},
    {"fp8_e4m3_wgmma", probe::kWgmmaE4M3, 64, 0x58, 0x58, 0x57, 0x57, 256, 225},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mma_chain OUT_DIR\n");
    return 2;
  }
  cudaDeviceProp prop{};
  if (!probe::first_device("mma_chain", prop)) return 77;
  const std::string arch = probe::arch_name(prop);
  for (const Chain& ch : kChains) {
    const probe::OpInfo& info = probe::op_info(ch.op);
    const int m = info.m, n = info.n, ik = info.k;
    const std::string path = std::string(argv[1]) + "/chain_" + ch.name + ".jsonl";
    FILE* fp = std::fopen(path.c_str(), "w");
    if (!fp) { std::perror(path.c_str()); return 3; }
    uint8_t *da, *db;
    uint32_t *dc, *dd;
    CUDA_CHECK(cudaMalloc(&da, size_t(m) * ik));
    CUDA_CHECK(cudaMalloc(&db, size_t(n) * ik));
    CUDA_CHECK(cudaMalloc(&dc, size_t(m) * n * 4));
    CUDA_CHECK(cudaMalloc(&dd, size_t(m) * n * 4));
    for (long long K : {ch.k_max, ch.k_max + 1}) {
      // K products: K - 1 largest, then the largest odd one; zeros pad the last step.
      const long long steps = (K + ik - 1) / ik;
      CUDA_CHECK(cudaMemset(dc, 0, size_t(m) * n * 4));
      std::vector<uint8_t> a(size_t(m) * ik), b(size_t(n) * ik);
      uint32_t last = 0;
      for (long long st = 0; st < steps; ++st) {
        for (int kk = 0; kk < ik; ++kk) {
          const long long idx = st * ik + kk;
          const uint8_t va = idx < K - 1 ? ch.max_a : idx == K - 1 ? ch.odd_a : 0;
          const uint8_t vb = idx < K - 1 ? ch.max_b : idx == K - 1 ? ch.odd_b : 0;
          for (int row = 0; row < m; ++row) a[size_t(row) * ik + kk] = va;
          for (int col = 0; col < n; ++col) b[size_t(col) * ik + kk] = vb;
        }
        CUDA_CHECK(cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice));
        uint32_t c0 = 0;
        CUDA_CHECK(cudaMemcpy(&c0, dc, 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemset(dd, 0xA5, size_t(m) * n * 4));  // canary
        probe::launch(ch.op, 1, da, db, dc, dd);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(&last, dd, 4, cudaMemcpyDeviceToHost));
        std::string s = "{\"op\":\"";
        s += info.ptx;
        s += "\",\"a\":\"";
        for (int kk = 0; kk < ik; ++kk) probe::hex(s, a[kk], 2);
        s += "\",\"b\":\"";
        for (int kk = 0; kk < ik; ++kk) probe::hex(s, b[kk], 2);
        s += "\",\"c\":\"";
        probe::hex(s, c0, 8);
        s += "\",\"d\":\"";
        probe::hex(s, last, 8);
        s += "\",\"tag\":\"chain:K=" + std::to_string(K) + ":step=" + std::to_string(st) + "\",\"arch\":\"" + arch + "\"}\n";
        std::fputs(s.c_str(), fp);
        CUDA_CHECK(cudaMemcpy(dc, dd, size_t(m) * n * 4, cudaMemcpyDeviceToDevice));  // D -> next C
      }
      const long long exact = (K - 1) * ch.p_max + ch.p_odd;
      double got;
      if (info.integer) {
        got = double(int32_t(last));
      } else {
        float f;
        std::memcpy(&f, &last, 4);
        got = f;
      }
      std::printf("%-20s K = %-7lld steps %-5lld final D 0x%08x = %.0f, exact sum %lld: %s\n", ch.name, K, steps, last, got,
                  exact, got == double(exact) ? "EXACT" : "NOT exact");
    }
    std::fclose(fp);
    cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
  }
  return 0;
}
