#include "fuzz/subjects.hpp"

#include "common/error.hpp"
#include "fuzz/dlopen_subject.hpp"
#include "fuzz/exec_subject.hpp"
#include "fuzz/scheme_subject.hpp"

namespace ozref::fuzz {

std::vector<std::string> option_words(const schemes::SchemeOptions& o) {
  std::vector<std::string> words;
  auto text = [&](const char* flag, const std::string& value) {
    if (!value.empty()) words.insert(words.end(), {flag, value});
  };
  auto count = [&](const char* flag, size_t value) {
    if (value) words.insert(words.end(), {flag, std::to_string(value)});
  };
  if (o.arch != "ideal") text("--arch", o.arch);
  text("--op", o.op), text("--mode", o.mode), text("--crt", o.crt), text("--slicing", o.slicing), text("--accumulate", o.accumulate);
  text("--mantissa-bits", o.mantissa_bits);
  count("--moduli", o.moduli), count("--slices", o.slices), count("--kblock", o.kblock);
  return words;
}

std::unique_ptr<Subject> make_subject(const SubjectSpec& spec) {
  const bool scheme = !spec.name.starts_with("exec:") && !spec.name.starts_with("dlopen:") && spec.name != "exact";
  const std::vector<std::string> words = option_words(spec.options);
  if (!scheme && !words.empty()) throw InputError("--subject " + quoted_excerpt(spec.name) + " takes no scheme options (" + words.front() + " given)");
  if (spec.name.starts_with("exec:")) return make_exec_subject(spec.name.substr(5), spec.timeout_seconds);
  if (spec.name.starts_with("dlopen:")) return make_dlopen_subject(spec.name.substr(7), spec.timeout_seconds);
  if (spec.name == "exact") return make_exact_subject(spec.threads);
  return make_scheme_subject(spec);
}

}  // namespace ozref::fuzz
