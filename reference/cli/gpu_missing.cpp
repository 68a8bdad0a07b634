#include "cli/gpu_missing.hpp"

#include "schemes/pipeline/gpu.hpp"

namespace ozref::cli {

int gpu_missing(const std::string& verb, const std::string& device, std::ostream& out, const std::string& flag, const std::string& needs) {
  if (device != "gpu") return 0;
  const schemes::GpuInfo info = schemes::gpu_info();
  if (info.available) return 0;
  out << "ozref " << verb << ": " << info.why_not << "; " << flag << " gpu needs " << needs << " (nothing was run)\n";
  return 77;
}

}  // namespace ozref::cli
