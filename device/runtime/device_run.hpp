// What the device ran for the stage in progress: the kernel launches of the twins (counted where
// each launch is checked, OZREF_CUDA_LAUNCHED, by its file and line) and the GEMM kernels or
// library calls that ran. The subject reads and clears it around each twin (subjects.hpp), so that
// lockstep's report says what ran, not what was meant to.
#pragma once
#include <cstddef>
#include <map>
#include <string>

namespace ozref::device {

struct DeviceRun {
  std::map<std::string, size_t> launches;  // "residues.cu:224" -> launches
  std::map<std::string, size_t> gemms;     // "wgmma_gemm mma ... .s32.s8.s8" or "cuBLASLt algo 21, ..." -> calls
};

// One record for the process (the twins run on the runner's thread, one stage at a time).
inline DeviceRun& device_run() {
  static DeviceRun run;
  return run;
}

inline void record_launch(const char* file, int line) {
  std::string where(file);
  where = where.substr(where.find_last_of('/') + 1) + ":" + std::to_string(line);
  ++device_run().launches[where];
}

inline void record_gemm(const std::string& what) { ++device_run().gemms[what]; }

}  // namespace ozref::device
