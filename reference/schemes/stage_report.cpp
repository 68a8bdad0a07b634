#include "schemes/stage_report.hpp"

#include "common/named_choice.hpp"

namespace ozref::schemes {

Verify parse_verify(const std::string& name) {
  return named_choice<Verify>(name, "--verify level", {{"none", Verify::None}, {"cheap", Verify::Cheap}, {"full", Verify::Full}});
}

}  // namespace ozref::schemes
