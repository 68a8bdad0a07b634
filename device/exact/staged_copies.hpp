// Copies between pageable host memory and the GPU through two pinned buffers: the copy engine
// runs at the pinned rate, and the host's part of one chunk (its memcpy, or what the caller does
// with a downloaded chunk) overlaps the GPU's copy of the next. gpu_exact moves its operands and
// its rounded elements (some GB at 16384^3) this way.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace ozref::device::exact {

// One device array of a chunked download: its elements' size.
struct DownloadPart {
  const void* device;
  size_t element_bytes;
};

class StagedCopies {
 public:
  explicit StagedCopies(size_t buffer_bytes);  // each of the two pinned buffers
  ~StagedCopies();
  StagedCopies(const StagedCopies&) = delete;
  StagedCopies& operator=(const StagedCopies&) = delete;

  // device[0, bytes) = host[0, bytes), after the device's earlier work; returns once the copy is done.
  void upload(void* device, const void* host, size_t bytes);

  // After the device's earlier work, elements [0, count) of every part, a chunk at a time: consume(first, len, host) with host[p]
  // pointing at part p's elements [first, first + len), while the next chunk is being copied.
  using Consumer = std::function<void(size_t first, size_t len, const std::vector<const void*>& host)>;
  void download(const std::vector<DownloadPart>& parts, size_t count, const Consumer& consume);

 private:
  size_t bytes_;
  void* buffer_[2] = {nullptr, nullptr};
  cudaEvent_t done_[2] = {nullptr, nullptr};  // the last copy from or to buffer_[i] has finished
  cudaStream_t stream_ = nullptr;
};

}  // namespace ozref::device::exact
