// ozref prove [--only PATTERN] [--long] [--json]: runs the theorems of proofs/ and prints their
// table. Exit 1 when any theorem is refuted or failed.
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/json_text.hpp"
#include "theorem.hpp"

namespace ozref::cli {

namespace {
bool matches(const proofs::Theorem& t, const ProveArgs& args) { return t.id.find(args.only) != std::string::npos; }
bool selected(const proofs::Theorem& t, const ProveArgs& args) { return matches(t, args) && (!t.long_running || args.long_too); }

// InputError naming the pattern and the theorem families (the ids' first part) when the options
// select no theorem.
void require_some_selected(const ProveArgs& args) {
  std::set<std::string> families;
  bool long_match = false;
  for (const proofs::Theorem& t : proofs::all_theorems()) {
    if (selected(t, args)) return;
    long_match = long_match || matches(t, args);
    families.insert(t.id.substr(0, t.id.find('.')));
  }
  std::string names;
  for (const std::string& f : families) names += (names.empty() ? "" : ", ") + f + ".*";
  throw InputError("--only " + quoted_excerpt(args.only) + " selects no theorem" +
                   (long_match ? " (those it matches are long: add --long)" : " (theorem ids: " + names + ")"));
}
}  // namespace

int run_prove(const ProveArgs& args, std::ostream& out) {
  require_some_selected(args);
  nlohmann::json theorems = nlohmann::json::array();
  bool all_proved = true;
  size_t ran = 0;
  for (const proofs::Theorem& t : proofs::all_theorems()) {
    if (!selected(t, args)) continue;
    const auto t0 = std::chrono::steady_clock::now();
    proofs::Result r;
    try {
      r = t.check();
    } catch (const std::exception& e) {
      r.status = proofs::Status::Failed;
      r.detail = e.what();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++ran;
    all_proved = all_proved && r.status == proofs::Status::Proved;
    nlohmann::json j = {{"id", t.id}, {"statement", t.statement}, {"status", proofs::to_string(r.status)},
                        {"method", t.method}, {"seconds", seconds}, {"data", r.data}};
    if (!r.detail.empty()) j["detail"] = r.detail;
    theorems.push_back(j);
    if (!args.json) {
      char line[256];
      std::snprintf(line, sizeof line, "%-36s %-8s %7.2fs  ", t.id.c_str(), proofs::to_string(r.status).c_str(), seconds);
      out << line << t.statement << "\n";
      if (!r.detail.empty()) out << "    " << r.detail << "\n";
    }
  }
  if (args.json) out << json_text(nlohmann::json{{"theorems", theorems}}) << "\n";
  else out << ran << " theorems, " << (all_proved ? "all proved" : "NOT all proved") << "\n";
  return ran > 0 && all_proved ? 0 : 1;
}

void add_prove(CLI::App& app, Action& action) {
  auto args = std::make_shared<ProveArgs>();
  CLI::App* verb = app.add_subcommand("prove", "run the machine-checked lemmas of proofs/ and print the table of theorems");
  verb->add_option("--only", args->only, "run the theorems whose id contains this text");
  verb->add_flag("--long", args->long_too, "also run the expensive theorems");
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_prove(*args, out); }; });
}

}  // namespace ozref::cli
