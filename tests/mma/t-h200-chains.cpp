// The exact_k boundary on the H200 itself (recorded by device/probes/chain_main.cu, committed under
// tests/data/traces/h200-chains): the hardware's final D of each worst-case chain against the exact
// sum (K - 1) p_max + p_odd, written out here. The derivation (`ozref prove`, exact_k.*) says
// exact at K_max, not exact at K_max + 1; the recorded hardware must agree.
#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "io/mma_trace.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
struct Chain {
  const char* file;
  long long k_max, p_max, p_odd;
  bool integer;
};
}  // namespace

TEST_CASE("h200 chains: the hardware is exact at K_max and not at K_max + 1, as derived", "[mma]") {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data != nullptr);
  test::CaseCount cases("recorded chain boundaries");
  for (const Chain c : {Chain{"chain_int8_s8s8", 131071, 16384, 16384, true}, Chain{"chain_fp8_e4m3_mma_sync", 65536, 256, 225, false},
                        Chain{"chain_fp8_e4m3_wgmma", 64, 256, 225, false}}) {
    std::map<long long, uint32_t> last;  // K -> D of the chain's last step
    std::map<long long, long long> last_step;
    read_mma_trace(std::string(data) + "/traces/h200-chains/" + c.file + ".jsonl.gz", [&](const MmaRecord& r) {
      const size_t kpos = r.tag.find("K="), spos = r.tag.find(":step=");
      const long long k = std::stoll(r.tag.substr(kpos + 2, spos - kpos - 2)), step = std::stoll(r.tag.substr(spos + 6));
      if (!last_step.count(k) || step > last_step[k]) {
        last_step[k] = step;
        last[k] = r.d;
      }
    });
    REQUIRE(last.size() == 2);
    for (const auto& [k, d] : last) {
      const long long exact = (k - 1) * c.p_max + c.p_odd;
      long double got;
      if (c.integer) {
        got = int32_t(d);
      } else {
        float f;
        std::memcpy(&f, &d, 4);
        got = f;
      }
      INFO(c.file << " K = " << k << ": hardware " << double(got) << ", exact " << exact);
      CHECK((got == static_cast<long double>(exact)) == (k == c.k_max));
      ++cases;
    }
  }
  cases.report(6);
}
