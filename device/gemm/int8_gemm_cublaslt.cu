// cuBLASLt's INT8 GEMM, loaded at run time (dlopen of libcublasLt.so.13): C^T = B^T A^T in cuBLAS's
// column-major terms, so that row-major A (m x k) and B by columns (n x k) are its TN operands and
// C comes out row-major. The algorithm is the first of cuBLASLt's heuristic; it is recorded with the
// stage's run (device_run.hpp) and given to the caller.
#include <cublasLt.h>
#include <dlfcn.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "gemm/int8_gemm.hpp"
#include "runtime/cuda_check.hpp"

namespace ozref::device {
namespace {

struct CublasLt {
  void* lib = nullptr;
#define OZREF_LT(name) decltype(&::name) name = nullptr
  OZREF_LT(cublasLtCreate);
  OZREF_LT(cublasLtMatmulDescCreate);
  OZREF_LT(cublasLtMatmulDescDestroy);
  OZREF_LT(cublasLtMatmulDescSetAttribute);
  OZREF_LT(cublasLtMatrixLayoutCreate);
  OZREF_LT(cublasLtMatrixLayoutDestroy);
  OZREF_LT(cublasLtMatmulPreferenceCreate);
  OZREF_LT(cublasLtMatmulPreferenceDestroy);
  OZREF_LT(cublasLtMatmulPreferenceSetAttribute);
  OZREF_LT(cublasLtMatmulAlgoGetHeuristic);
  OZREF_LT(cublasLtMatmulAlgoConfigGetAttribute);
  OZREF_LT(cublasLtMatmul);
#undef OZREF_LT
  cublasLtHandle_t handle = nullptr;

  CublasLt() {
    lib = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcublasLt.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error(std::string("cuBLASLt: cannot load libcublasLt.so.13: ") + dlerror());
    auto load = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, name));
      if (!f) throw std::runtime_error(std::string("cuBLASLt: no symbol ") + name);
    };
    load(cublasLtCreate, "cublasLtCreate");
    load(cublasLtMatmulDescCreate, "cublasLtMatmulDescCreate");
    load(cublasLtMatmulDescDestroy, "cublasLtMatmulDescDestroy");
    load(cublasLtMatmulDescSetAttribute, "cublasLtMatmulDescSetAttribute");
    load(cublasLtMatrixLayoutCreate, "cublasLtMatrixLayoutCreate");
    load(cublasLtMatrixLayoutDestroy, "cublasLtMatrixLayoutDestroy");
    load(cublasLtMatmulPreferenceCreate, "cublasLtMatmulPreferenceCreate");
    load(cublasLtMatmulPreferenceDestroy, "cublasLtMatmulPreferenceDestroy");
    load(cublasLtMatmulPreferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute");
    load(cublasLtMatmulAlgoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic");
    load(cublasLtMatmulAlgoConfigGetAttribute, "cublasLtMatmulAlgoConfigGetAttribute");
    load(cublasLtMatmul, "cublasLtMatmul");
    check(cublasLtCreate(&handle), "cublasLtCreate");
  }
  static void check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string("cuBLASLt: ") + what + " failed with status " + std::to_string(int(s)));
  }
};

CublasLt& cublaslt() {
  static CublasLt lt;
  return lt;
}

// A cuBLASLt object destroyed with its owner, also when a later call throws.
template <typename H>
class Owned {
 public:
  using Destroy = cublasStatus_t (*)(H);
  explicit Owned(Destroy destroy) : destroy_(destroy) {}
  ~Owned() {
    if (h_) destroy_(h_);
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  H* out() { return &h_; }
  H get() const { return h_; }

 private:
  H h_{};
  Destroy destroy_;
};

// "cuBLASLt algo 21, tile 18, stages 9": the configuration the heuristic chose.
std::string algorithm_text(const CublasLt& lt, const cublasLtMatmulAlgo_t& algo) {
  int id = 0, tile = 0, stages = 0;
  size_t written = 0;
  lt.cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written);
  lt.cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &written);
  lt.cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &written);
  return "cuBLASLt algo " + std::to_string(id) + ", tile " + std::to_string(tile) + ", stages " + std::to_string(stages);
}

}  // namespace

void int8_gemm_cublaslt(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c, std::string* algorithm) {
  if (k % 4 != 0) throw std::runtime_error("cuBLASLt INT8 GEMM: K = " + std::to_string(k) + " is not a multiple of 4");
  CublasLt& lt = cublaslt();
  Owned<cublasLtMatmulDesc_t> desc(lt.cublasLtMatmulDescDestroy);
  CublasLt::check(lt.cublasLtMatmulDescCreate(desc.out(), CUBLAS_COMPUTE_32I, CUDA_R_32I), "MatmulDescCreate");
  const cublasOperation_t trans = CUBLAS_OP_T, no = CUBLAS_OP_N;
  CublasLt::check(lt.cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof trans), "TRANSA");
  CublasLt::check(lt.cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSB, &no, sizeof no), "TRANSB");
  // column-major: B by columns is k x n (ld k), A is k x m (ld k), C is n x m (ld n)
  Owned<cublasLtMatrixLayout_t> la(lt.cublasLtMatrixLayoutDestroy), lb(lt.cublasLtMatrixLayoutDestroy), lc(lt.cublasLtMatrixLayoutDestroy);
  CublasLt::check(lt.cublasLtMatrixLayoutCreate(la.out(), CUDA_R_8I, k, n, k), "layout B");
  CublasLt::check(lt.cublasLtMatrixLayoutCreate(lb.out(), CUDA_R_8I, k, m, k), "layout A");
  CublasLt::check(lt.cublasLtMatrixLayoutCreate(lc.out(), CUDA_R_32I, n, m, n), "layout C");
  static DeviceArray<uint8_t> workspace(size_t{32} << 20);
  const size_t workspace_bytes = workspace.size();
  Owned<cublasLtMatmulPreference_t> pref(lt.cublasLtMatmulPreferenceDestroy);
  CublasLt::check(lt.cublasLtMatmulPreferenceCreate(pref.out()), "PreferenceCreate");
  CublasLt::check(lt.cublasLtMatmulPreferenceSetAttribute(pref.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof workspace_bytes),
                  "workspace");
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  CublasLt::check(lt.cublasLtMatmulAlgoGetHeuristic(lt.handle, desc.get(), la.get(), lb.get(), lc.get(), lc.get(), pref.get(), 1, &heuristic, &found),
                  "AlgoGetHeuristic");
  if (found == 0) throw std::runtime_error("cuBLASLt: no INT8 algorithm for " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
  const std::string chosen = algorithm_text(lt, heuristic.algo);
  if (algorithm) *algorithm = chosen;
  const int32_t one = 1, zero = 0;
  CublasLt::check(lt.cublasLtMatmul(lt.handle, desc.get(), &one, b_columns, la.get(), a, lb.get(), &zero, c, lc.get(), c, lc.get(), &heuristic.algo,
                                    workspace.get(), workspace_bytes, nullptr),
                  "Matmul");
  OZREF_CUDA_LAUNCHED();
  record_gemm(chosen);
}

}  // namespace ozref::device
