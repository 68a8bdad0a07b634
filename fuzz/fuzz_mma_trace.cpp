// fuzz_mma_trace: one MMA trace line, parsed and, when it parses, replayed against the sm_90 and
// ideal models. Bad lines must be InputErrors; a parsed record must format back to a line that
// parses to the same record.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/error.hpp"
#include "io/mma_trace.hpp"
#include "mma/execute.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  try {
    const ozref::MmaRecord r = ozref::parse_mma_record(line, "fuzz:1");
    const ozref::MmaRecord again = ozref::parse_mma_record(ozref::format_mma_record(r), "fuzz:2");
    if (again.op != r.op || again.a != r.a || again.b != r.b || again.c != r.c || again.d != r.d) std::abort();
    for (const char* arch : {"sm_90", "ideal", "sm_100"}) {
      try {
        const auto& spec = ozref::mma::instruction(ozref::mma::arch(arch), r.op);
        ozref::mma::execute(spec, {r.a, r.b, r.c, r.scale_a, r.scale_b});
      } catch (const ozref::InputError&) {
      }
    }
  } catch (const ozref::InputError&) {
  }
  return 0;
}
