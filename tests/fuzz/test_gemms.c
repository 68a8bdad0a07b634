/* dlopen: subjects for ozref fuzz's tests (tests/fuzz/t-subjects.cpp), with the documented
   signature (docs/fuzz.md). */
#include <signal.h>
#include <unistd.h>

void gemm_rowmajor(int m, int n, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = s;
    }
}

void gemm_colmajor(int m, int n, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += a[i + p * lda] * b[p + j * ldb];
      c[i + j * ldc] = s;
    }
}

/* Right in row-major order, but a segmentation fault when K > 8. */
void gemm_crashes_past_k8(int m, int n, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  if (k > 8) raise(SIGSEGV);
  gemm_rowmajor(m, n, k, a, lda, b, ldb, c, ldc);
}

/* Never returns when m == 2 (sleeping: a loop with no side effect may be assumed to end). */
void gemm_hangs_on_two_rows(int m, int n, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  while (m == 2) sleep(1);
  gemm_rowmajor(m, n, k, a, lda, b, ldb, c, ldc);
}
