// The two CBLAS entry points ozref uses (OpenBLAS), declared here rather than through cblas.h,
// whose Debian alternatives may point at a header without OpenBLAS's thread control.
#pragma once

extern "C" {
void cblas_dgemm(int order, int trans_a, int trans_b, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc);
void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void openblas_set_num_threads(int threads);
int openblas_get_num_threads(void);
}

namespace ozref::blas {
constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111;
}  // namespace ozref::blas
