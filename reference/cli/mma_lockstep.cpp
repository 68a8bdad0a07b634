#include "cli/mma_lockstep.hpp"

#include <set>

#include "api/mma_lockstep.hpp"
#include "common/error.hpp"
#include "common/hex.hpp"
#include "io/json_text.hpp"

namespace ozref::cli {
namespace {

void report(std::ostream& out, const api::MmaLockstepOptions& o, const api::MmaLockstep& r) {
  out << "ozref lockstep: " << r.spec->op << " on " << r.device << " against the " << o.arch << " model, " << o.m << "x" << o.n << "x" << o.k
      << " (" << to_string(o.dist) << ", seed " << o.seed << ")\n\n"
      << "  outputs                 " << r.gpu.size() << "\n  bit-identical           " << r.gpu.size() - r.mismatched << "\n"
      << "  model not exact         " << r.inexact << " (" << r.inexact_means << ")\n";
  if (r.mismatched)
    out << "  first difference        [i " << r.first / o.n << ", j " << r.first % o.n << "]: gpu " << to_hex32(r.gpu[r.first]) << ", model "
        << to_hex32(r.cpu[r.first]) << "\n";
  out << "\n  every output bit-identical: " << (r.mismatched == 0 ? "yes" : "NO") << "\n";
}

// The MMA level runs one GEMM: the options of a scheme run do not apply there.
void refuse_scheme_options(const std::vector<std::string>& given) {
  static const std::set<std::string> mma_level = {"--op", "--arch", "--m", "--n", "--k", "--dist", "--seed", "--json", "--dump", "--threads"};
  for (const std::string& name : given)
    if (!mma_level.count(name))
      throw InputError("lockstep --op without --scheme runs one GEMM through the instruction: " + name +
                       " does not apply (it takes --arch, --m, --n, --k, --dist, --seed, --dump, --json, --threads)");
}

}  // namespace

int run_mma_lockstep(const LockstepArgs& args, std::ostream& out) {
  refuse_scheme_options(args.given);
  api::MmaLockstepOptions o;
  o.op = args.run.options.op, o.arch = args.arch_given ? args.run.options.arch : "sm_90";
  o.m = args.run.m, o.n = args.run.n, o.k = args.run.k, o.seed = args.run.seed, o.threads = args.run.threads, o.dump = args.run.dump;
  o.dist = mma::parse_operand_distribution(args.dist_given ? args.run.dist : "encodings");
  const api::MmaLockstep r = api::mma_lockstep(o);
  if (!r.ran()) {
    out << "ozref lockstep: " << r.why_not << "; the lockstep needs an sm_90 GPU (nothing was run)\n";
    return 77;
  }
  if (args.run.json) out << json_text(api::mma_lockstep_json(o, r)) << "\n";
  else report(out, o, r);
  return r.mismatched == 0 ? 0 : 1;
}

}  // namespace ozref::cli
