// This machine's GPU as the black box of `ozref serve --device gpu` (docs/infer.md): each query
// runs its instruction once, on one tile, through the probe kernels (device/probes/mma_kernels.cuh:
// sm_90's mma.sync and wgmma forms; device/probes/query_tile.hpp places it). Defined in the device
// library (device/api/gpu_oracle.cpp); a build without CUDA says why (device/absent/).
#pragma once
#include <string>
#include <vector>

#include "infer/oracle.hpp"

namespace ozref::infer {

// The instructions the GPU oracle runs (their PTX, as MMA trace records name them).
std::vector<std::string> gpu_oracle_ops();

// InputError saying why when no usable sm_90 GPU is present. The oracle throws InputError for a
// query whose op it does not run, or whose operands are not one row of A and one column of B.
Oracle gpu_oracle();

}  // namespace ozref::infer
