// gemmul8_lg2_probe: what the H200's lg2.approx.f32 (CUDA's __log2f) does to GEMMul8 v2.0.14's
// shifts, exhaustively over the arguments those shifts can take, and a survey of lg2.approx.f32
// over every positive finite float.
// Usage: gemmul8_lg2_probe OUT_DIR. Writes
//   OUT_DIR/lg2_h200.txt   the recording ozref's gemmul8@2.0.14 reads (copy it to
//                          tests/data/gemmul8/lg2_h200.txt): one line per shift argument where
//                          __log2f gives GEMMul8 another floor than the correctly rounded log2,
//                            fast N e vbits h200 model      (v = RU_float(vecnrm 2^-e) in [1, 2])
//                            accurate N xbits h200 model    (x = float(M), M the bound maximum)
//                          and every argument whose device-side correct rounding is uncertain;
//   OUT_DIR/lg2_stats.txt  lg2.approx.f32 against RN(log2 x) over all positive finite floats.
// The two floors are GEMMul8's formulas (reference/schemes/gemmul8/shifts.hpp has them and their
// source) written with the same intrinsics; fast mode's floor depends on log2 only for e >= 1
// (below, max(1, l) is 1), and is a nonincreasing step function of it with at most one step, so
// each (N, e) is searched for its step and the arguments near it are compared. Self-contained
// (CUDA runtime and libstdc++ only) so that it runs on a bare GPU host.
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace {

#define CHECK_CUDA(x)                                                                             \
  do {                                                                                            \
    const cudaError_t err_ = (x);                                                                 \
    if (err_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "gemmul8_lg2_probe: %s: %s\n", #x, cudaGetErrorString(err_));          \
      std::exit(err_ == cudaErrorNoDevice || err_ == cudaErrorInsufficientDriver ? 77 : 1);       \
    }                                                                                             \
  } while (0)

// GEMMul8 v2.0.14's log2P table (src/table.hpp, INT8, 2..20 moduli); ozref derives the same values
// (tests/schemes/t-gemmul8.cpp holds them against each other).
__constant__ float kLog2P[19] = {0x1.dfd1ecp+2f, 0x1.6fa336p+3f, 0x1.ef2ea6p+3f, 0x1.372d94p+4f, 0x1.767b2ep+4f,
                                 0x1.b5b028p+4f, 0x1.f49a02p+4f, 0x1.19a858p+5f, 0x1.38f6bcp+5f, 0x1.582adap+5f,
                                 0x1.7736aep+5f, 0x1.961916p+5f, 0x1.b4a4fep+5f, 0x1.d321f8p+5f, 0x1.f180a6p+5f,
                                 0x1.07e7f8p+6f, 0x1.16e7e2p+6f, 0x1.25df9ap+6f, 0x1.34be22p+6f};
constexpr float kHalfUp = 0x1.000006p-1f;
constexpr uint32_t kOne = 0x3F800000u, kTwo = 0x40000000u;  // the fast mode's arguments: [1, 2]
constexpr int kMaxExponent = 1023;

__device__ int fast_floor(float y, int e, float log2p) {
  const float s = __fadd_ru(y, static_cast<float>(e));
  return __float2int_rd(__fsub_rd(__fsub_rd(log2p, 1.5f), fmaxf(1.0f, __fmul_ru(kHalfUp, s))));
}

__device__ int accurate_floor(float y, float log2p) { return __float2int_rd(__fmaf_rd(-kHalfUp, y, log2p)); }

// RN(log2 x) from the double log2 (within an ulp); uncertain when that lies within 2^-40 of a
// float rounding boundary.
__device__ float log2_nearest(float x, bool& uncertain) {
  const double t = log2(static_cast<double>(x));
  const float f = __double2float_rn(t);
  const double below = (static_cast<double>(f) + static_cast<double>(nextafterf(f, -INFINITY))) / 2;
  const double above = (static_cast<double>(f) + static_cast<double>(nextafterf(f, INFINITY))) / 2;
  const double margin = fabs(t) * 0x1p-40;
  uncertain = t != 0 && (fabs(t - below) <= margin || fabs(t - above) <= margin);
  return f;
}

struct Entry {
  int kind;  // 0 fast, 1 accurate
  int moduli, exponent;
  uint32_t bits;
  int h200, model;
};

struct Sink {
  Entry* entries;
  unsigned long long* count;
  unsigned long long capacity;
};

__device__ void put(const Sink& sink, Entry e) {
  const unsigned long long at = atomicAdd(sink.count, 1ull);
  if (at < sink.capacity) sink.entries[at] = e;
}

// Both logarithms of every fast-mode argument v in [1, 2] (index v - 1.0's bits).
__global__ void fast_arguments(float* approx, float* nearest, unsigned char* uncertain, float* max_error) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > kTwo - kOne) return;
  const float x = __uint_as_float(kOne + i);
  bool u;
  nearest[i] = log2_nearest(x, u);
  approx[i] = __log2f(x);
  uncertain[i] = u;
  const float err = fabsf(approx[i] - nearest[i]);
  atomicMax(reinterpret_cast<int*>(max_error), __float_as_int(err));  // nonnegative floats order as ints
}

// The index of the first v whose nearest log2 is >= y (nearest is nondecreasing in v).
__device__ uint32_t first_at_least(const float* nearest, uint32_t count, float y) {
  uint32_t lo = 0, hi = count;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (nearest[mid] < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// One thread per (N, e): the step of the fast floor in y (the first y where it drops below its
// value at y = low), then every v whose two logarithms lie within `window` of it.
__global__ void fast_steps(const float* approx, const float* nearest, const unsigned char* uncertain, float window, Sink sink) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= 19 * kMaxExponent) return;
  const int moduli = 2 + id / kMaxExponent, e = 1 + id % kMaxExponent;
  const float log2p = kLog2P[moduli - 2];
  const uint32_t count = kTwo - kOne + 1;
  // y spans [-window, 1 + window]; nonnegative floats order as their bits, so search those.
  uint32_t lo = 0, hi = __float_as_uint(1.0f + 2 * window);
  const int top = fast_floor(-window, e, log2p);
  if (fast_floor(__uint_as_float(hi), e, log2p) == top && fast_floor(0.0f, e, log2p) == top) return;
  while (lo < hi) {  // the first y >= 0 with a lower floor
    const uint32_t mid = lo + (hi - lo) / 2;
    if (fast_floor(__uint_as_float(mid), e, log2p) < top) hi = mid;
    else lo = mid + 1;
  }
  const float step = __uint_as_float(lo);
  const uint32_t from = first_at_least(nearest, count, step - window), to = first_at_least(nearest, count, step + window);
  for (uint32_t i = from; i <= to && i < count; ++i) {
    const int h = fast_floor(approx[i], e, log2p), m = fast_floor(nearest[i], e, log2p);
    if (h != m || uncertain[i]) put(sink, {0, moduli, e, kOne + i, h, m});
  }
}

// Every integer-valued float x in [1, 2^31] (float(M) for the bound maximum M), every N.
__global__ void accurate_arguments(Sink sink) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint32_t bits = kOne + uint32_t(i);
  if (bits > 0x4F000000u) return;  // 2^31
  const int exponent = int((bits >> 23) & 0xFF) - 127;
  if (exponent < 23 && (bits & ((1u << (23 - exponent)) - 1)) != 0) return;  // not an integer
  const float x = __uint_as_float(bits);
  bool u;
  const float nearest = log2_nearest(x, u);
  const float approx = __log2f(x);
  for (int moduli = 2; moduli <= 20; ++moduli) {
    const int h = accurate_floor(approx, kLog2P[moduli - 2]), m = accurate_floor(nearest, kLog2P[moduli - 2]);
    if (h != m || u) put(sink, {1, moduli, 0, bits, h, m});
  }
}

struct Survey {
  unsigned long long differ, uncertain;
  int max_abs_error_bits;  // largest |approx - RN| on [0.5, 2] (as float bits)
  int max_ulps;            // largest distance in ulps elsewhere
};

// lg2.approx.f32 over every positive finite float against RN(log2 x).
__global__ void survey(Survey* s) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= 0x7F800000ull - 1) return;
  const float x = __uint_as_float(uint32_t(i + 1));
  bool u;
  const float nearest = log2_nearest(x, u);
  const float approx = __log2f(x);
  if (u) atomicAdd(&s->uncertain, 1ull);
  if (approx == nearest) return;
  atomicAdd(&s->differ, 1ull);
  if (x >= 0.5f && x <= 2.0f) {
    atomicMax(&s->max_abs_error_bits, __float_as_int(fabsf(approx - nearest)));
  } else {
    const int a = __float_as_int(approx), b = __float_as_int(nearest);  // same sign here (|log2 x| >= 1)
    atomicMax(&s->max_ulps, abs(a - b));
  }
}

void write_recording(const std::string& path, const std::vector<Entry>& entries, const cudaDeviceProp& prop, int driver, float max_error) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "gemmul8_lg2_probe: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "# GEMMul8 v2.0.14's shift floors with lg2.approx.f32 (h200) and with RN(log2) (model), where they differ\n");
  std::fprintf(f, "# device %s (sm_%d%d), driver %d; fast arguments [1, 2], e = 1..%d; accurate arguments integer floats [1, 2^31]\n",
               prop.name, prop.major, prop.minor, driver, kMaxExponent);
  std::fprintf(f, "# largest |lg2.approx - RN(log2)| on [1, 2]: %a; %zu entries\n", max_error, entries.size());
  for (const Entry& e : entries) {
    if (e.kind == 0) std::fprintf(f, "fast %d %d %08" PRIx32 " %d %d\n", e.moduli, e.exponent, e.bits, e.h200, e.model);
    else std::fprintf(f, "accurate %d %08" PRIx32 " %d %d\n", e.moduli, e.bits, e.h200, e.model);
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gemmul8_lg2_probe OUT_DIR\n");
    return 2;
  }
  const std::string out = argv[1];
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  const uint32_t count = kTwo - kOne + 1;
  float *approx, *nearest, *max_error;
  unsigned char* uncertain;
  CHECK_CUDA(cudaMalloc(&approx, count * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&nearest, count * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&uncertain, count));
  CHECK_CUDA(cudaMalloc(&max_error, sizeof(float)));
  CHECK_CUDA(cudaMemset(max_error, 0, sizeof(float)));
  fast_arguments<<<(count + 255) / 256, 256>>>(approx, nearest, uncertain, max_error);
  float err = 0;
  CHECK_CUDA(cudaMemcpy(&err, max_error, sizeof(float), cudaMemcpyDeviceToHost));
  const float window = 4 * err + 0x1p-22f;  // every v whose approximation can cross a step lies within it

  Sink sink;
  sink.capacity = 1ull << 22;
  CHECK_CUDA(cudaMalloc(&sink.entries, sink.capacity * sizeof(Entry)));
  CHECK_CUDA(cudaMalloc(&sink.count, sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(sink.count, 0, sizeof(unsigned long long)));
  fast_steps<<<(19 * kMaxExponent + 127) / 128, 128>>>(approx, nearest, uncertain, window, sink);
  accurate_arguments<<<(0x4F000000u - kOne + 256) / 256, 256>>>(sink);
  unsigned long long n = 0;
  CHECK_CUDA(cudaMemcpy(&n, sink.count, sizeof n, cudaMemcpyDeviceToHost));
  if (n > sink.capacity) {
    std::fprintf(stderr, "gemmul8_lg2_probe: %llu entries exceed the buffer of %llu\n", n, sink.capacity);
    return 1;
  }
  std::vector<Entry> entries(n);
  CHECK_CUDA(cudaMemcpy(entries.data(), sink.entries, n * sizeof(Entry), cudaMemcpyDeviceToHost));
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::make_tuple(a.kind, a.moduli, a.exponent, a.bits) < std::make_tuple(b.kind, b.moduli, b.exponent, b.bits);
  });
  write_recording(out + "/lg2_h200.txt", entries, prop, driver, err);

  Survey* s;
  CHECK_CUDA(cudaMalloc(&s, sizeof(Survey)));
  CHECK_CUDA(cudaMemset(s, 0, sizeof(Survey)));
  survey<<<(0x7F800000ull + 255) / 256, 256>>>(s);
  Survey host;
  CHECK_CUDA(cudaMemcpy(&host, s, sizeof host, cudaMemcpyDeviceToHost));
  float max_abs;
  std::memcpy(&max_abs, &host.max_abs_error_bits, sizeof max_abs);
  FILE* f = std::fopen((out + "/lg2_stats.txt").c_str(), "w");
  if (!f) return 1;
  std::fprintf(f, "lg2.approx.f32 on %s over all %u positive finite floats, against RN(log2 x):\n", prop.name, 0x7F800000u - 1);
  std::fprintf(f, "  differing: %llu\n  largest |difference| on [0.5, 2]: %a\n  largest difference elsewhere: %d ulps\n", host.differ, max_abs,
               host.max_ulps);
  std::fprintf(f, "  arguments whose device RN(log2) is uncertain: %llu\n", host.uncertain);
  std::fclose(f);
  std::printf("gemmul8_lg2_probe: %zu recorded shift arguments (largest |error| on [1, 2] %a); survey: %llu of %u differ\n", entries.size(), err,
              host.differ, 0x7F800000u - 1);
  CHECK_CUDA(cudaDeviceSynchronize());
  return 0;
}
