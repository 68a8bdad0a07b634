// Host helpers shared by the cuBLAS probes (cublas_emu_probe, cublas_edge_probe): status checks that
// exit with 77 when there is no device, .npy output in the layout cuBLAS reads, and one DGEMM.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cublas_probe {

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "cublas probe: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 77 : 1);
}

inline void check(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "cublas probe: %s: cuBLAS status %d\n", what, static_cast<int>(s));
  std::exit(1);
}

// A column-major rows x cols f8 matrix as .npy (Fortran order), as make_inputs.py writes them.
inline void write_npy(const std::string& path, size_t rows, size_t cols, const std::vector<double>& column_major) {
  std::string header = "{'descr': '<f8', 'fortran_order': True, 'shape': (" + std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "cublas probe: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const uint16_t length = static_cast<uint16_t>(header.size());
  std::fwrite(magic, 1, 8, f);
  std::fwrite(&length, 2, 1, f);
  std::fwrite(header.data(), 1, header.size(), f);
  std::fwrite(column_major.data(), sizeof(double), column_major.size(), f);
  std::fclose(f);
}

struct Case {
  std::string name;
  size_t m, n, k;
  std::vector<double> a, b;  // column-major
};

// C = A B with the handle's current settings into `out` (column-major); cublasDgemm's status.
inline cublasStatus_t gemm(cublasHandle_t h, const Case& c, std::vector<double>& out) {
  double *a, *b, *cc;
  check(cudaMalloc(&a, c.a.size() * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&b, c.b.size() * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&cc, c.m * c.n * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(a, c.a.data(), c.a.size() * sizeof(double), cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(b, c.b.data(), c.b.size() * sizeof(double), cudaMemcpyHostToDevice), "copy B");
  check(cudaMemset(cc, 0xFF, c.m * c.n * sizeof(double)), "canary C");  // a NaN where cuBLAS writes nothing
  const double one = 1, zero = 0;
  const cublasStatus_t status =
      cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(c.m), int(c.n), int(c.k), &one, a, int(c.m), b, int(c.k), &zero, cc, int(c.m));
  out.resize(c.m * c.n);
  check(cudaMemcpy(out.data(), cc, out.size() * sizeof(double), cudaMemcpyDeviceToHost), "copy C");
  cudaFree(a), cudaFree(b), cudaFree(cc);
  return status;
}

}  // namespace cublas_probe
