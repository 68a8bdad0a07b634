#include "exact/staged_copies.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/cuda_check.hpp"

namespace ozref::device::exact {
namespace {

// dst[0, bytes) = src[0, bytes) on OpenMP's threads: one thread's memcpy falls well short of the
// copy engine's rate.
void parallel_copy(void* dst, const void* src, size_t bytes) {
  constexpr size_t kPiece = size_t{1} << 20;
  const long pieces = long((bytes + kPiece - 1) / kPiece);
#pragma omp parallel for schedule(static)
  for (long p = 0; p < pieces; ++p) {
    const size_t at = size_t(p) * kPiece;
    std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, std::min(kPiece, bytes - at));
  }
}

}  // namespace

StagedCopies::StagedCopies(size_t buffer_bytes) : bytes_(buffer_bytes) {
  OZREF_CUDA(cudaStreamCreate(&stream_));
  for (int i = 0; i < 2; ++i) {
    OZREF_CUDA(cudaMallocHost(&buffer_[i], bytes_));
    OZREF_CUDA(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming));
  }
}

StagedCopies::~StagedCopies() {
  for (int i = 0; i < 2; ++i) cudaFreeHost(buffer_[i]), cudaEventDestroy(done_[i]);
  cudaStreamDestroy(stream_);
}

void StagedCopies::upload(void* device, const void* host, size_t bytes) {
  OZREF_CUDA(cudaDeviceSynchronize());  // the device's work before (a canary fill of `device`) first, whatever stream it ran on
  for (size_t at = 0, i = 0; at < bytes; at += bytes_, i ^= 1) {
    const size_t len = std::min(bytes_, bytes - at);
    OZREF_CUDA(cudaEventSynchronize(done_[i]));  // the buffer's previous chunk has left it
    parallel_copy(buffer_[i], static_cast<const char*>(host) + at, len);
    OZREF_CUDA(cudaMemcpyAsync(static_cast<char*>(device) + at, buffer_[i], len, cudaMemcpyHostToDevice, stream_));
    OZREF_CUDA(cudaEventRecord(done_[i], stream_));
  }
  OZREF_CUDA(cudaStreamSynchronize(stream_));
}

void StagedCopies::download(const std::vector<DownloadPart>& parts, size_t count, const Consumer& consume) {
  OZREF_CUDA(cudaDeviceSynchronize());  // the kernels that wrote the parts first, whatever stream they ran on
  size_t element = 0;
  for (const DownloadPart& p : parts) element += p.element_bytes;
  const size_t chunk = std::max<size_t>(1, bytes_ / std::max<size_t>(1, element));
  std::vector<const void*> host[2];
  // Chunk c goes into buffer c % 2, each part's elements one after another.
  auto issue = [&](size_t first, int i) {
    const size_t len = std::min(chunk, count - first);
    char* at = static_cast<char*>(buffer_[i]);
    host[i].clear();
    for (const DownloadPart& p : parts) {
      OZREF_CUDA(cudaMemcpyAsync(at, static_cast<const char*>(p.device) + first * p.element_bytes, len * p.element_bytes,
                                 cudaMemcpyDeviceToHost, stream_));
      host[i].push_back(at);
      at += len * p.element_bytes;
    }
    OZREF_CUDA(cudaEventRecord(done_[i], stream_));
  };
  if (count) issue(0, 0);
  for (size_t first = 0, i = 0; first < count; first += chunk, i ^= 1) {
    if (first + chunk < count) issue(first + chunk, int(i ^ 1));  // that buffer's chunk was consumed last round
    OZREF_CUDA(cudaEventSynchronize(done_[i]));
    consume(first, std::min(chunk, count - first), host[i]);
  }
}

}  // namespace ozref::device::exact
