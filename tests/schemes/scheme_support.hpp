// Checks shared by the scheme tests.
#pragma once
#include "schemes/stage_report.hpp"
#include "support.hpp"

namespace ozref::test {

// Every stage with a contract checked and verified (the first violation shown otherwise).
inline void require_stages_verified(const schemes::SchemeResult& r) {
  for (const auto& s : r.stages) {
    INFO(s.name << ": " << s.first_violation);
    REQUIRE(s.holds());
  }
}

// Every stage verified and the run exact.
inline void require_all_verified(const schemes::SchemeResult& r) {
  require_stages_verified(r);
  REQUIRE(r.exact);
}

}  // namespace ozref::test
