#include "cli/probe_verdict.hpp"

#include "mma/execute.hpp"

namespace ozref::cli {

Verdict settle(const std::string& arch, const std::vector<MmaRecord>& records) {
  Verdict v;
  v.family = mma::arch_family(arch);
  v.records = records.size();
  if (v.family.size() == 1) {
    v.text = arch + " has no variants: no open question to settle";
    return v;
  }
  for (const std::string& name : v.family) v.reproduced[name] = 0;
  for (const MmaRecord& r : records) {
    bool differ = false;
    uint32_t first = 0;
    for (size_t i = 0; i < v.family.size(); ++i) {
      const mma::InstructionSpec& s = mma::instruction(mma::arch(v.family[i]), r.op);
      const uint32_t d = mma::execute(s, {r.a, r.b, r.c, r.scale_a, r.scale_b});
      if (i == 0) first = d;
      differ = differ || d != first;
      v.reproduced[v.family[i]] += d == r.d;
    }
    v.discriminating += differ;
  }
  for (const std::string& name : v.family)
    if (v.records > 0 && v.reproduced[name] == v.records) v.consistent.push_back(name);
  std::string names;
  for (const std::string& name : v.family) names += (names.empty() ? "" : ", ") + name;
  if (v.discriminating == 0) {
    v.text = "undecided: no record tells " + names + " apart";
  } else if (v.consistent.size() == 1) {
    v.use = v.consistent[0];
    v.text = v.use + " reproduces every record and the others do not: use --arch " + v.use;
  } else if (v.consistent.empty()) {
    v.text = "none of " + names + " reproduces every record: the hardware follows neither reading, or the probe is at "
             "fault (ozref mma-check --json lists the records each spec misses, with their tags; report the traces)";
  } else {
    v.text = "undecided: several specs reproduce every record";
  }
  return v;
}

nlohmann::json Verdict::json() const {
  return {{"family", family}, {"records", records}, {"discriminating_records", discriminating},
          {"reproduced", reproduced}, {"consistent", consistent}, {"use", use}, {"verdict", text}};
}

std::string probe_program(const std::string& arch) {
  const std::string base = mma::arch_family(arch).front();
  return base == "sm_100" || base == "sm_120" ? "mma_probe_blackwell" : "mma_probe";
}

}  // namespace ozref::cli
