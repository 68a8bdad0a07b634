#include "schemes/stage_report.hpp"

#include "common/error.hpp"

namespace ozref::schemes {

Verify parse_verify(const std::string& name) {
  if (name == "none") return Verify::None;
  if (name == "cheap") return Verify::Cheap;
  if (name == "full") return Verify::Full;
  throw InputError("unknown --verify level '" + name + "' (known: none, cheap, full)");
}

}  // namespace ozref::schemes
