#include "api/lockstep_run.hpp"

#include <memory>

#include "api/report_json.hpp"
#include "api/verify_level.hpp"
#include "common/error.hpp"
#include "schemes/manifest.hpp"
#include "trace/trace.hpp"

namespace ozref {

schemes::Lockstep lockstep_mode(const std::string& name) {
  if (name == "resync") return schemes::Lockstep::Resynchronised;
  if (name == "free") return schemes::Lockstep::FreeRunning;
  throw InputError("unknown --lockstep '" + name + "' (known: resync, free)");
}

LockstepRun lockstep_named_scheme(const LockstepRequest& request, SchemeInputs x) {
  const SchemeRunRequest& q = request.run;
  LockstepRun out{.gpu = {}, .run = {.scheme = schemes::build_scheme(q.scheme, q.options, x.m, x.n, x.k), .source = x.source}, .ran = {}};
  SchemeRun& run = out.run;
  out.gpu = schemes::gpu_info();
  if (!out.gpu.available) return out;
  const std::unique_ptr<schemes::Subject> subject = schemes::make_gpu_subject(run.scheme, {request.gemm, request.fault});
  std::unique_ptr<TraceWriter> gpu_trace, cpu_trace;
  if (!q.dump.empty()) {
    gpu_trace = std::make_unique<TraceWriter>(q.dump + "/gpu", schemes::trace_header(run.scheme, x.source, q.seed));
    cpu_trace = std::make_unique<TraceWriter>(q.dump + "/cpu", schemes::trace_header(run.scheme, x.source, q.seed));
  }
  run.verify = verify_level(q.verify, x.m, x.n, x.k);
  run.result = schemes::run_scheme(run.scheme, std::move(x.arrays),
                                   {.verify = run.verify, .threads = q.threads, .trace = gpu_trace.get(), .cpu_trace = cpu_trace.get(),
                                    .subject = subject.get(), .mode = request.mode,
                                    .reproducers = q.dump.empty() ? "" : q.dump + "/reproducers"});
  out.ran = schemes::gpu_stages_ran(*subject);
  if (gpu_trace) gpu_trace->finish(), cpu_trace->finish();
  return out;
}

namespace {
// {"<stage>": {"launches": {"<file>:<line>": count}, "gemms": {"<kernel and instruction>": count}}}
nlohmann::json device_ran_json(const std::map<std::string, schemes::GpuStageRun>& ran) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [stage, r] : ran) j[stage] = {{"launches", r.launches}, {"gemms", r.gemms}};
  return j;
}
}  // namespace

nlohmann::json lockstep_json(const LockstepRun& run, const std::string& lockstep, const std::string& gemm) {
  const schemes::Scheme& s = run.run.scheme;
  const schemes::SchemeResult& r = run.run.result;
  return {{"scheme", s.name}, {"options", s.options}, {"resolved", s.resolved}, {"m", s.m}, {"n", s.n}, {"k", s.k},
          {"source", run.run.source}, {"device", run.gpu.device}, {"lockstep", lockstep}, {"gemm", gemm},
          {"gpu_stages", schemes::gpu_stages(s)}, {"device_ran", device_ran_json(run.ran)}, {"stages", stages_json(r, true)}, {"identical", r.identical}, {"exact", r.exact},
          {"accuracy", metrics_json(r.accuracy)}, {"seconds", r.seconds}};
}

}  // namespace ozref
