#include "fuzz/subjects.hpp"

#include "common/error.hpp"
#include "fuzz/dlopen_subject.hpp"
#include "fuzz/exec_subject.hpp"
#include "fuzz/scheme_subject.hpp"
#include "schemes/scheme_option_table.hpp"

namespace ozref::fuzz {

std::vector<std::string> option_words(const schemes::SchemeOptions& o) {
  std::vector<std::string> words;
  if (o.arch != "ideal") words.insert(words.end(), {"--arch", o.arch});
  for (const schemes::OptionDeclaration& d : schemes::scheme_option_declarations())
    for (std::string& w : d.words(o)) words.push_back(std::move(w));
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
