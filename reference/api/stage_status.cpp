#include "api/stage_status.hpp"

namespace ozref {

int stages_exit_code(const schemes::SchemeResult& r) {
  for (const auto& s : r.stages)
    if ((s.checked && !s.verified()) || !s.comparison.identical()) return 1;
  return 0;
}

}  // namespace ozref
