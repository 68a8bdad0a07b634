#include "infer/gpu_oracle.hpp"

#include <cuda_runtime.h>

#include "common/error.hpp"
#include "probes/query_tile.hpp"
#include "runtime/cuda_check.hpp"
#include "schemes/pipeline/gpu.hpp"

namespace ozref::infer {
namespace {

std::string ops_text() {
  std::string text;
  for (const std::string& op : gpu_oracle_ops()) text += (text.empty() ? "" : ", ") + op;
  return text;
}

// D of one query, from one launch of its instruction on one tile.
uint32_t run_query(const MmaRecord& q) {
  const int op = probe::op_named(q.op);
  if (op < 0) throw InputError("the GPU runs " + ops_text() + "; not " + quoted_excerpt(q.op));
  const size_t bytes = probe::row_bytes(op);
  if (q.a.size() != bytes || q.b.size() != bytes)
    throw InputError(q.op + " takes " + std::to_string(bytes) + " bytes of A and of B, got " + std::to_string(q.a.size()) + " and " +
                     std::to_string(q.b.size()));
  if (!q.scale_a.empty() || !q.scale_b.empty()) throw InputError(q.op + " takes no block scales");
  const probe::QueryTile t = probe::query_tile(op, q.a, q.b, q.c);
  const device::DeviceArray<uint8_t> a(t.a.data(), t.a.size()), b(t.b.data(), t.b.size());
  const device::DeviceArray<uint32_t> c(t.c.data(), t.c.size()), d(t.c.size());
  probe::launch(op, 1, a.get(), b.get(), c.get(), d.get());
  OZREF_CUDA_LAUNCHED();
  std::vector<uint32_t> host(d.size());
  d.download(host.data());
  return host[probe::QueryTile::kAnswer];
}

}  // namespace

std::vector<std::string> gpu_oracle_ops() {
  std::vector<std::string> ops;
  for (int op = 0; op < probe::kOpCount; ++op) ops.push_back(probe::op_info(op).ptx);
  return ops;
}

Oracle gpu_oracle() {
  const schemes::GpuInfo info = schemes::gpu_info();
  if (!info.available) throw InputError(info.why_not);
  if (info.sm != 90)
    throw InputError(info.device + ": the probe kernels are built for sm_90 (the mma.sync and wgmma forms of the H100 and H200)");
  return run_query;
}

}  // namespace ozref::infer
