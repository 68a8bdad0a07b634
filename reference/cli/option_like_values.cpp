#include "cli/option_like_values.hpp"

#include <string>

#include "common/error.hpp"

namespace ozref::cli {
namespace {

CLI::Validator not_an_option() {
  return CLI::Validator(
      [](std::string& text) {
        if (!text.starts_with("--")) return std::string();
        return quoted_excerpt(text) + " is an option, not a value (a file whose name starts with -- is given as ./NAME)";
      },
      "");
}

void refuse_in(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (option->get_items_expected_max() > 0) option->check(not_an_option());
}

}  // namespace

void refuse_option_like_values(CLI::App& app) {
  refuse_in(app);
  for (CLI::App* verb : app.get_subcommands([](CLI::App*) { return true; })) refuse_in(*verb);
}

}  // namespace ozref::cli
