#include "mpi/distributed_verify_trace.hpp"

#include <chrono>
#include <cstdint>
#include <vector>

#include "api/scheme_inputs.hpp"
#include "api/verify_level.hpp"
#include "common/error.hpp"
#include "exact/exact_gemm.hpp"
#include "mpi/block_run.hpp"
#include "mpi/merged_metrics.hpp"
#include "mpi/mpi_world.hpp"
#include "mpi/rank_agreement.hpp"
#include "mpi/rank_part.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/reproducer.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/registry.hpp"
#include "common/seconds_since.hpp"
#include "schemes/pipeline/admitted_check.hpp"
#include "schemes/pipeline/block_trace_subject.hpp"
#include "schemes/pipeline/trace_subject.hpp"

namespace ozref::mpi {
namespace {

// One array the trace lists, with the stage whose values it admits (none for the inputs).
struct ListedArray {
  const ManifestStage* stage = nullptr;
  const ManifestArray* array = nullptr;
  const schemes::Stage* writer = nullptr;
};

// The trace's arrays in the order one process reads them: the inputs, or the stages' outputs.
std::vector<ListedArray> listed_arrays(const Manifest& m, const schemes::Scheme& s, bool inputs) {
  std::vector<ListedArray> v;
  if (inputs) {
    const ManifestStage* st = m.find(std::string(schemes::kInputStage));
    for (const ArraySpec& spec : s.input_specs()) v.push_back({st, st->find(spec.name), nullptr});
    return v;
  }
  for (const auto& stage : s.stages)
    if (const ManifestStage* st = m.find(std::string(stage->name())))
      for (const ArraySpec& spec : stage->outputs()) v.push_back({st, st->find(spec.name), stage.get()});
  return v;
}

// One array read whole, a few MiB at a time: its header, hash and values checked as one process
// checks them when it reads the array.
void check_listed(const Manifest& m, const ListedArray& x) {
  std::string bad;
  scan_trace_array(m, *x.stage, *x.array, [&](const uint8_t* bytes, size_t elements, size_t first) {
    if (x.writer && bad.empty())
      bad = first_not_admitted(*x.writer, x.array->name, x.array->dtype, bytes, elements, first, x.array->shape,
                               trace_array_where(m, *x.stage, *x.array));
  });
  if (!bad.empty()) throw InputError(bad);
}

// Array i checked on rank i mod R; every rank stops with the first faulty array's message
// (collective).
void check_over_ranks(const Manifest& m, const std::vector<ListedArray>& arrays) {
  uint64_t at = UINT64_MAX;
  std::string message;
  for (size_t i = size_t(rank()); i < arrays.size() && at == UINT64_MAX; i += size_t(ranks())) {
    try {
      check_listed(m, arrays[i]);
    } catch (const std::exception& e) {
      at = i, message = e.what();
    }
  }
  stop_at_first_fault(at, message);
}

// The scheme of this rank's block, its checks keyed by their place in the whole product.
schemes::Scheme block_scheme(const Manifest& m, const schemes::Scheme& whole, const RankPart& part, const schemes::BlockFrame& frame) {
  const nlohmann::json options = m.json.contains("options") ? m.json.at("options") : nlohmann::json::object();
  schemes::SchemeOptions o = schemes::SchemeOptions::from_json(options, m.path);
  o.block = frame;
  o.kernel_arrays = true;
  return schemes::build_scheme(whole.name, o, part.block.rows.size(), part.block.cols.size(), whole.k);
}

// The reproducer of each stage's first difference of all, written by the rank that holds it, and
// its folder in the merged reports on rank 0 (collective).
void write_first_reproducers(const std::vector<schemes::StageReport>& mine, std::vector<schemes::StageReport>& merged, const std::string& dir) {
  nlohmann::json written = nlohmann::json::object();
  on_every_rank([&] {
    for (size_t s = 0; s < mine.size(); ++s) {
      const schemes::StageComparison &own = mine[s].comparison, &all = merged[s].comparison;
      if (!own.pending || !own.differing || own.first_at != all.first_at) continue;
      schemes::StageComparison out;
      write_reproducer(dir, *own.pending, out);
      written[std::to_string(s)] = {out.reproducer, out.reproducer_error};
    }
  });
  for (const std::string& text : gather_strings_on_root(written.dump())) {
    const nlohmann::json folders = nlohmann::json::parse(text);
    for (const auto& [s, folder] : folders.items()) {
      schemes::StageComparison& c = merged[std::stoul(s)].comparison;
      c.reproducer = folder.at(0).get<std::string>(), c.reproducer_error = folder.at(1).get<std::string>();
    }
  }
}

// The slowest rank's seconds.
double slowest(double seconds) {
  std::vector<double> v = {seconds};
  max_within_group(v, 0);
  return v[0];
}

}  // namespace

std::string why_trace_not_distributed(const schemes::Scheme& whole) {
  const bool ozaki2 = whole.name == "ozaki2-int8" || whole.name == "ozaki2-fp8" || whole.name == "ozaki2-fp4";
  if (!ozaki2)
    return "a trace of " + whole.name + " is verified in one process; over MPI ranks verify-trace takes ozaki2-int8, ozaki2-fp8 and ozaki2-fp4 traces (docs/scale.md)";
  if (whole.parts == 2) return "a complex trace is verified in one process; over MPI ranks verify-trace takes real products (docs/scale.md)";
  return "";
}

TraceVerification verify_trace_distributed(const TraceVerificationRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  // The manifest holds every array's hash, which the rank that checks the array compares.
  std::vector<NamedInput> inputs = {{"the trace's manifest", request.dir + "/manifest.json"}};
  if (!request.a.empty()) inputs.push_back({"--a", request.a});
  if (!request.b.empty()) inputs.push_back({"--b", request.b});
  agree_on_inputs(inputs);
  Manifest manifest;
  TraceVerification v;
  bool from_files = false, in_one_process = false;
  on_every_rank([&] {
    manifest = read_manifest(request.dir);
    v.scheme = schemes::scheme_of_manifest(manifest.json, manifest.path);
    const TraceSubject whole(manifest, v.scheme);  // the manifest against the scheme's stages and arrays
    from_files = inputs_from_files(request);
    if (!from_files) whole.input_stage();
    const std::string why = why_trace_not_distributed(v.scheme);
    if (!why.empty() && ranks() > 1) throw InputError(why);
    in_one_process = !why.empty();  // one rank: as in one process
    v.verify = verify_level(request.verify, v.scheme.m, v.scheme.n, v.scheme.k);
  });
  if (in_one_process) return verify_trace_folder(request);
  std::string a_path = request.a, b_path = request.b;
  const Folder* inside = nullptr;  // the trace's inputs are read through its folder's handle
  if (!from_files) {
    check_over_ranks(manifest, listed_arrays(manifest, v.scheme, true));
    const ManifestStage& in = *manifest.find(std::string(schemes::kInputStage));
    a_path = in.find("a")->file, b_path = in.find("b")->file, inside = manifest.folder.get();
  }
  RankPart part;
  on_every_rank([&] {
    read_rank_part(part, a_path, b_path, inside);
    if (from_files) require_manifest_shape(part.files.m, part.files.n, part.files.k, v.scheme);
  });
  require_finite_operands(part, v.scheme.name);
  check_over_ranks(manifest, listed_arrays(manifest, v.scheme, false));
  const schemes::BlockFrame frame = frame_of(part);
  schemes::Scheme block;
  on_every_rank([&] { block = block_scheme(manifest, v.scheme, part, frame); });
  BlockTraceSubject subject(manifest, frame);
  const std::string reproducers = reproducers_folder(request);
  schemes::SchemeResult mine;
  on_every_rank([&] {
    mine = schemes::run_scheme(block, real_scheme_inputs(part.ops, part.files.a->path(), part.files.b->path()).arrays,
                               {.verify = v.verify, .threads = request.threads, .subject = &subject, .reproducers = reproducers,
                                .measure_accuracy = false, .block = &frame});
  });
  MetricSums sums;
  on_every_rank([&] { sums = measure_sums(mine.c.data, exact_gemm(part.ops.a, part.ops.b, {.threads = request.threads}), place_of(part)); });
  v.result.accuracy = merged_metrics(sums);
  v.result.stages = merged_reports(mine.stages);
  write_first_reproducers(mine.stages, v.result.stages, reproducers);
  schemes::settle_exactness(v.scheme, v.result);
  v.result.pipeline_seconds = slowest(mine.pipeline_seconds);
  v.result.seconds = slowest(seconds_since(start));
  return v;
}

}  // namespace ozref::mpi
