// ozref diff DIR1 DIR2: compares two traces stage by stage, array by array, bit for bit, in the
// stage order of DIR1's manifest, and reports the first divergent stage and element with the
// values on both sides.
#include <bit>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "trace/trace.hpp"

namespace ozref::cli {
namespace {

std::string element_text(const NpyArray& a, size_t i) {
  const uint8_t* p = a.data.data() + i * dtype_size(a.dtype);
  char buf[96];
  switch (a.dtype) {
    case DType::F8: {
      uint64_t u;
      std::memcpy(&u, p, 8);
      std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", std::bit_cast<double>(u), static_cast<unsigned long long>(u));
      return buf;
    }
    case DType::F4: {
      uint32_t u;
      std::memcpy(&u, p, 4);
      std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", double(std::bit_cast<float>(u)), u);
      return buf;
    }
    case DType::I1: return std::to_string(int(int8_t(p[0])));
    case DType::U1: return std::to_string(int(p[0]));
    case DType::I2: { int16_t v; std::memcpy(&v, p, 2); return std::to_string(v); }
    case DType::U2: { uint16_t v; std::memcpy(&v, p, 2); return std::to_string(v); }
    case DType::I4: { int32_t v; std::memcpy(&v, p, 4); return std::to_string(v); }
    case DType::U4: { uint32_t v; std::memcpy(&v, p, 4); return std::to_string(v); }
    case DType::I8: { int64_t v; std::memcpy(&v, p, 8); return std::to_string(v); }
    case DType::U8: { uint64_t v; std::memcpy(&v, p, 8); return std::to_string(v); }
    case DType::C16: {
      double re, im;
      std::memcpy(&re, p, 8);
      std::memcpy(&im, p + 8, 8);
      std::snprintf(buf, sizeof buf, "%.17g%+.17gi", re, im);
      return buf;
    }
  }
  return "?";
}

std::string index_text(const std::vector<size_t>& shape, size_t flat) {
  std::vector<size_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

}  // namespace

int run_diff(const DiffArgs& args, std::ostream& out) {
  const std::vector<TraceArray> left = read_trace(args.left), right = read_trace(args.right);
  std::map<std::pair<std::string, std::string>, const TraceArray*> by_name;
  for (const auto& r : right) by_name[{r.stage, r.name}] = &r;
  nlohmann::json report = {{"left", args.left}, {"right", args.right}, {"identical", true}, {"arrays_compared", 0}};
  size_t compared = 0;
  for (const auto& l : left) {
    const auto it = by_name.find({l.stage, l.name});
    nlohmann::json d = {{"stage", l.stage}, {"array", l.name}};
    if (it == by_name.end()) {
      d["problem"] = "missing in " + args.right;
    } else {
      const NpyArray& x = l.data;
      const NpyArray& y = it->second->data;
      if (x.dtype != y.dtype || x.shape != y.shape) {
        d["problem"] = "dtype or shape differ: " + std::string(dtype_name(x.dtype)) + " " + nlohmann::json(x.shape).dump() +
                       " against " + std::string(dtype_name(y.dtype)) + " " + nlohmann::json(y.shape).dump();
      } else {
        ++compared;
        const size_t es = dtype_size(x.dtype);
        size_t differing = 0, first = 0;
        for (size_t i = 0; i < x.elements(); ++i)
          if (std::memcmp(&x.data[i * es], &y.data[i * es], es) != 0) {
            if (differing++ == 0) first = i;
          }
        if (!differing) continue;
        d["problem"] = "values differ";
        d["differing_elements"] = differing;
        d["first_index"] = index_text(x.shape, first);
        d["left_value"] = element_text(x, first);
        d["right_value"] = element_text(y, first);
      }
    }
    report["identical"] = false;
    report["first_divergence"] = d;
    break;
  }
  report["arrays_compared"] = compared;
  if (args.json) {
    out << report.dump() << "\n";
  } else if (report["identical"]) {
    out << "identical: " << compared << " arrays compared bit for bit\n";
  } else {
    const auto& d = report["first_divergence"];
    out << "first divergence at stage '" << d["stage"].get<std::string>() << "', array '" << d["array"].get<std::string>()
        << "': " << d["problem"].get<std::string>() << "\n";
    if (d.contains("first_index"))
      out << "  " << d["differing_elements"] << " elements differ; first at " << d["first_index"].get<std::string>() << ": "
          << args.left << " has " << d["left_value"].get<std::string>() << ", " << args.right << " has "
          << d["right_value"].get<std::string>() << "\n";
  }
  return report["identical"] ? 0 : 1;
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
