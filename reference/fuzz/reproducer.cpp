#include "fuzz/reproducer.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/npy.hpp"

namespace ozref::fuzz {
namespace {

namespace fs = std::filesystem;

nlohmann::json case_json(const Matrix<double>& a, const Matrix<double>& b, const Verdict& v) {
  return {{"m", a.rows}, {"n", b.cols}, {"k", a.cols}, {"property", property_name(*v.failed)}, {"kind", v.failure_kind}, {"detail", v.detail},
          {"figures", v.figures}};
}

// ozref fuzz with the subject and the properties: the replay command without its folder.
std::vector<std::string> fuzz_words(const ReproducerContext& context) {
  std::vector<std::string> words{context.ozref, "fuzz"};
  words.insert(words.end(), context.check_words.begin(), context.check_words.end());
  return words;
}

void write_case(const std::string& folder, const Matrix<double>& a, const Matrix<double>& b, const Verdict& v) {
  write_npy(folder + "/A.npy", npy_from_matrix(a));
  write_npy(folder + "/B.npy", npy_from_matrix(b));
  if (v.has_c) write_npy(folder + "/C.npy", npy_from_matrix(v.c));
}

}  // namespace

std::string shell_quoted(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& w : words) {
    line += line.empty() ? "'" : " '";
    for (char ch : w) line += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    line += "'";
  }
  return line;
}

nlohmann::json finding_report(const Finding& f, const ReproducerContext& context, const std::string& folder) {
  const FuzzCase& o = f.original;
  nlohmann::json original = case_json(o.a, o.b, f.original_verdict);
  original["generator"] = o.generator;
  original["case_index"] = o.index;
  original["case_seed"] = o.seed;
  const Shrunk& s = f.shrunk;
  return {{"subject", context.subject},
          {"property", property_name(*f.original_verdict.failed)},
          {"seed", context.run_seed},
          {"original", original},
          {"shrunk", case_json(s.a, s.b, s.verdict)},
          {"shrink", {{"steps", s.steps}, {"attempts", s.attempts}, {"seconds", s.seconds}, {"budget_ran_out", s.budget_ran_out}}},
          {"replay", context.ozref.empty() ? nlohmann::json() : [&] {
             std::vector<std::string> words = fuzz_words(context);
             words.insert(words.end(), {"--replay", fs::absolute(folder).string(), "--seconds", "0"});
             return nlohmann::json(words);
           }()}};
}

void write_reproducer(const std::string& folder, const Finding& f, const ReproducerContext& context) {
  prepare_output_folder(folder, "--out");
  prepare_output_folder(folder + "/original", "--out");
  write_case(folder, f.shrunk.a, f.shrunk.b, f.shrunk.verdict);
  write_case(folder + "/original", f.original.a, f.original.b, f.original_verdict);
  if (!context.subject_log.empty() && fs::exists(context.subject_log)) {
    std::ifstream log(context.subject_log, std::ios::binary);
    std::ostringstream bytes;
    bytes << log.rdbuf();
    write_file_atomically(folder + "/subject.log", bytes.str());
  }
  write_file_atomically(folder + "/report.json", finding_report(f, context, folder).dump(2) + "\n");
  if (context.ozref.empty()) return;  // no command runs this subject
  // The folder may move: the script replays the folder it lies in.
  write_file_atomically(folder + "/replay.sh", "#!/bin/sh\n# Replays this finding: exit 1 while the subject still fails the property.\nexec " +
                                                   shell_quoted(fuzz_words(context)) + " --replay \"$(dirname \"$0\")\" --seconds 0\n");
  fs::permissions(folder + "/replay.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
}

}  // namespace ozref::fuzz
