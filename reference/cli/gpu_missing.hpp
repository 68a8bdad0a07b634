// The one answer of a verb asked for the GPU where there is none (exact, check, fuzz, serve), as
// ozref lockstep gives it: exit 77 after one line saying why.
#pragma once
#include <ostream>
#include <string>

namespace ozref::cli {

// 77 after one line on `out` saying why when `device` is "gpu" and no usable GPU is present; else
// 0. `flag` is the option that asked for the GPU, `needs` what it needs.
int gpu_missing(const std::string& verb, const std::string& device, std::ostream& out, const std::string& flag = "--device",
                const std::string& needs = "an sm_90, sm_100 or sm_120 GPU");

}  // namespace ozref::cli
