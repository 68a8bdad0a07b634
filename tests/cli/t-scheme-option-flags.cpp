// The command line's scheme options come from their declarations (include/ozref/scheme_options.hpp):
// each option's words, as a fuzz reproducer's replay.sh writes them, parse back to the same options.
#include "cli/run_options.hpp"
#include "fuzz/subjects.hpp"
#include "schemes/scheme_option_table.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("scheme option flags: every declared option is a flag, and its words parse back to it", "[cli]") {
  schemes::SchemeOptions given;
  given.arch = "sm_90", given.op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", given.mode = "fast";
  given.moduli = 14, given.moduli_list = {256, 255, 253}, given.kblock = 4096, given.slices = 3, given.mantissa_bits = "dynamic:55";
  given.crt = "dd", given.complex_product = "gaussian", given.slicing = "cublas", given.accumulate = "fp64";
  CHECK(given.given().size() == schemes::scheme_option_declarations().size());  // the test sets every declared option

  CLI::App app;
  api::SchemeOptions parsed;
  cli::add_declared_scheme_options(&app, parsed);
  std::vector<std::string> words = fuzz::option_words(given);
  INFO(words.size() << " words");
  std::reverse(words.begin(), words.end());  // CLI11 takes them last first
  app.parse(words);
  CHECK(schemes::SchemeOptions(parsed).to_json() == given.to_json());

  CLI::App bad;
  cli::add_declared_scheme_options(&bad, parsed);
  CHECK_THROWS_AS(bad.parse(std::vector<std::string>{"1", "--moduli"}), CLI::ValidationError);
  CHECK_THROWS_AS(bad.parse(std::vector<std::string>{"256,x", "--moduli-list"}), CLI::ValidationError);
}
