// api::lockstep (include/ozref/lockstep.hpp): what `ozref lockstep` runs and reports.
#include "ozref/lockstep.hpp"

#include "api/lockstep_run.hpp"
#include "api/public_types.hpp"
#include "api/verify_level.hpp"
#include "io/atomic_file.hpp"

namespace ozref::api {

LockstepResult lockstep(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const LockstepOptions& options) {
  const RunOptions& o = options.run;
  require_threads(o.threads);
  const schemes::Lockstep mode = lockstep_mode(options.lockstep);
  if (!o.dump.empty()) prepare_output_folder(o.dump, "dump");
  LockstepRun r = lockstep_named_scheme(
      {.run = {.scheme = scheme, .options = scheme_options_of(o.scheme, is_complex(a, b)), .verify = o.verify, .threads = o.threads,
               .dump = o.dump},
       .mode = mode, .gemm = options.gemm, .fault = options.fault},
      scheme_inputs_of(a, b));
  LockstepResult out;
  out.available = r.gpu.available, out.why_not = r.gpu.why_not, out.device = r.gpu.device;
  if (out.available)
    out.result = public_run_result(r.run.scheme, r.run.result, verify_name(r.run.verify), lockstep_json(r, options.lockstep, options.gemm));
  return out;
}

LockstepResult lockstep(const std::string& scheme, const ArrayRef& a, const ArrayRef& b) { return lockstep(scheme, a, b, LockstepOptions()); }

}  // namespace ozref::api
