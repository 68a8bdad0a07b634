// The one way ozref opens its inputs (io/input_file.hpp): regular files only, sizes bounded before
// anything is read; a FIFO, device or folder is refused at once, never read (or waited on).
#include <filesystem>
#include <sys/stat.h>

#include "common/error.hpp"
#include "io/input_file.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

namespace {
// The InputError message of reading `path` (bounded by `max_bytes`); fails when it was read.
std::string refusal(const std::string& path, uint64_t max_bytes = 1 << 20) {
  try {
    read_input_file(path, max_bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("read " << path << " instead of refusing it");
  return "";
}
}  // namespace

TEST_CASE("input file: a regular file is read whole, through a symbolic link too", "[io]") {
  test::Workspace ws;
  std::string bytes(100000, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 131 + 7);
  const std::string path = ws.file("data.bin", bytes);
  CHECK(read_input_file(path, bytes.size()) == bytes);
  std::filesystem::create_symlink(path, ws.path("link"));
  CHECK(read_input_file(ws.path("link"), bytes.size()) == bytes);
  CHECK(read_input_file(ws.file("empty", ""), 0).empty());
  // A regular file that reports size 0 but has content (procfs) is read to its end.
  CHECK(read_input_file("/proc/self/status", 1 << 20).find("Pid:") != std::string::npos);
  // One far longer than the 4096-byte probe of a full buffer (smaps: tens of KB), read whole, and
  // refused when it grows past the bound.
  const std::string smaps = read_input_file("/proc/self/smaps", 1 << 24);
  CHECK(smaps.size() > 3 * 4096);
  CHECK(smaps.find("Size:") != std::string::npos);
  CHECK(smaps.find("VmFlags:") != std::string::npos);
  CHECK_THAT(refusal("/proc/self/smaps", 5000), Catch::Contains("bytes, more than the 5000 bytes ozref can hold in memory"));
}

TEST_CASE("input file: folders, FIFOs, devices and missing files are refused by name", "[io]") {
  test::Workspace ws;
  REQUIRE(::mkfifo(ws.path("fifo").c_str(), 0600) == 0);  // no writer: opening it must not wait
  CHECK_THAT(refusal(ws.path("fifo")), Catch::Contains("fifo: is a FIFO (named pipe), not a regular file"));
  CHECK_THAT(refusal("/dev/zero"), Catch::Contains("/dev/zero: is a character device"));
  CHECK_THAT(refusal("/dev/null"), Catch::Contains("/dev/null: is a character device"));
  CHECK_THAT(refusal(ws.dir.string()), Catch::Contains(": is a folder"));
  CHECK_THAT(refusal(ws.path("missing.npy")), Catch::Contains("missing.npy: cannot open for reading: No such file"));
  CHECK_THAT(refusal(""), Catch::Contains("'' (an empty file name)"));
  CHECK_THAT(refusal(ws.path("missing.npy") + "/x"), Catch::Contains("missing.npy/x: cannot open"));
}

TEST_CASE("input file: a file larger than the bound is refused before it is read", "[io]") {
  test::Workspace ws;
  const std::string path = ws.file("big", std::string(5000, 'x'));
  CHECK(read_input_file(path, 5000).size() == 5000);
  CHECK_THAT(refusal(path, 4999), Catch::Contains("big: 5000 bytes, more than the 4999 bytes"));
}
