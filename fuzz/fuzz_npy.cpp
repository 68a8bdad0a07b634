// fuzz_npy: the .npy reader on arbitrary bytes. It must either parse (and then re-serialise to an
// array that parses to the same thing) or throw InputError; nothing else (no crash, no other
// exception, no sanitizer report).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/error.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ozref::NpyArray a = ozref::parse_npy(bytes, "fuzz.npy");
    const ozref::NpyArray b = ozref::parse_npy(ozref::serialize_npy(a), "reserialised");
    if (b.dtype != a.dtype || b.shape != a.shape || b.data != a.data) std::abort();
  } catch (const ozref::InputError&) {
  }
  return 0;
}
