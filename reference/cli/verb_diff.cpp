// ozref diff DIR1 DIR2: compares two traces stage by stage, array by array, bit for bit, in the
// stage order of DIR1's manifest, and reports the first divergent stage and element with the
// values on both sides. Both manifests are validated (trace/manifest.hpp) and every array is read
// through them; a stage or array present on one side only is a divergence.
#include <nlohmann/json.hpp>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "common/printable_text.hpp"
#include "io/json_text.hpp"
#include "schemes/manifest.hpp"
#include "trace/compare.hpp"
#include "trace/manifest.hpp"

namespace ozref::cli {
namespace {

nlohmann::json with(nlohmann::json d, const nlohmann::json& more) {
  d.update(more);
  return d;
}

// Element `flat` of a stage array, named by the scheme's axes as verify-trace names it
// ("[modulus 251, i 2, j 4]"); by position where the manifest names no scheme ozref rebuilds.
std::string element_index(const Manifest& m, const std::string& stage, const std::string& array, const std::vector<size_t>& shape, size_t flat) {
  try {
    const schemes::Scheme s = schemes::scheme_of_manifest(m.json, m.path);
    if (const schemes::Stage* st = s.find(stage))
      for (const ArraySpec& spec : st->outputs())
        if (spec.name == array) return named_index(spec, shape, flat);
  } catch (const InputError&) {
  }
  return index_text(shape, flat);
}

// The first divergence of `right` from `left` (null when identical); `compared` counts the arrays
// compared bit for bit.
nlohmann::json first_divergence(const Manifest& left, const Manifest& right, size_t& compared) {
  for (const ManifestStage& ls : left.stages) {
    const ManifestStage* rs = right.find(ls.name);
    for (const ManifestArray& la : ls.arrays) {
      nlohmann::json d = {{"stage", ls.name}, {"array", la.name}};
      const ManifestArray* ra = rs ? rs->find(la.name) : nullptr;
      if (!ra) return with(d, {{"problem", "missing in " + right.dir}});
      const Tensor x = Tensor::from_npy(read_trace_array(left, ls, la)), y = Tensor::from_npy(read_trace_array(right, *rs, *ra));
      if (x.dtype() != y.dtype() || x.shape() != y.shape())
        return with(d, {{"problem", "dtype or shape differ: " + std::string(dtype_name(x.dtype())) + " " + nlohmann::json(x.shape()).dump() +
                                         " against " + std::string(dtype_name(y.dtype())) + " " + nlohmann::json(y.shape()).dump()}});
      ++compared;
      const ArrayDifference diff = compare_arrays(x, y);
      if (diff.differing)
        return with(d, {{"problem", "values differ"}, {"differing_elements", diff.differing}, {"first_index", element_index(left, ls.name, la.name, x.shape(), diff.first)},
                         {"left_value", diff.left}, {"right_value", diff.right}});
    }
  }
  for (const ManifestStage& rs : right.stages)
    for (const ManifestArray& ra : rs.arrays) {
      const ManifestStage* ls = left.find(rs.name);
      if (!ls || !ls->find(ra.name)) return {{"stage", rs.name}, {"array", ra.name}, {"problem", "missing in " + left.dir}};
    }
  return nullptr;
}

// Where the traces part at a stage the scheme leaves to the kernel (its scale shifts), why that is
// no defect; empty for any other stage, or a manifest that names no scheme ozref can rebuild.
std::string free_choice_note(const Manifest& m, const std::string& stage) {
  try {
    const schemes::Scheme s = schemes::scheme_of_manifest(m.json, m.path);
    const schemes::Stage* st = s.find(stage);
    if (!st || st->kind() != schemes::StageKind::Choice) return "";
  } catch (const InputError&) {
    return "";
  }
  return "'" + stage + "' is a free choice of each kernel (ozref schema): two valid kernels may part here and differ in every stage after it; "
         "ozref verify-trace judges each stage of a kernel's trace on its own";
}

}  // namespace

int run_diff(const DiffArgs& args, std::ostream& out) {
  const Manifest left = read_manifest(args.left), right = read_manifest(args.right);
  size_t compared = 0;
  const nlohmann::json d = first_divergence(left, right, compared);
  nlohmann::json report = {{"left", args.left}, {"right", args.right}, {"identical", d.is_null()}, {"arrays_compared", compared}};
  const std::string note = d.is_null() ? "" : free_choice_note(left, d["stage"].get<std::string>());
  if (!d.is_null()) report["first_divergence"] = d;
  if (!note.empty()) report["note"] = note;
  if (args.json) {
    out << json_text(report) << "\n";
  } else if (d.is_null()) {
    out << "identical: " << compared << " arrays compared bit for bit\n";
  } else {  // names from the manifests, printable (common/printable_text.hpp)
    out << printable_text("first divergence at stage '" + d["stage"].get<std::string>() + "', array '" + d["array"].get<std::string>() +
                          "': " + d["problem"].get<std::string>())
        << "\n";
    if (d.contains("first_index"))
      out << printable_text("  " + d["differing_elements"].dump() + " elements differ; first at " + d["first_index"].get<std::string>() +
                            ": " + args.left + " has " + d["left_value"].get<std::string>() + ", " + args.right + " has " +
                            d["right_value"].get<std::string>())
          << "\n";
    if (!note.empty()) out << "  note: " << printable_text(note) << "\n";
  }
  return d.is_null() ? 0 : 1;
}

void add_diff(CLI::App& app, Action& action) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* verb = app.add_subcommand("diff", "compare two traces stage by stage, bit for bit");
  verb->add_option("left", args->left, "trace folder (its manifest gives the stage order)")->required();
  verb->add_option("right", args->right, "trace folder to compare with")->required();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_diff(*args, out); }; });
}

}  // namespace ozref::cli
