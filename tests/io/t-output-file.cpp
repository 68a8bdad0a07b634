// The one way ozref writes a file (io/atomic_file.hpp): new files and regular files only, an
// existing file's mode kept, every other kind of target refused and left as it was, long names,
// and no temporary file left behind after a failure or a signal.
#include <csignal>
#include <filesystem>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/temp_file_cleanup.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

namespace {
std::string refusal(const std::string& path) {
  try {
    write_file_atomically(path, "new bytes");
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("wrote " << path << " instead of refusing it");
  return "";
}

std::string content(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

bool temp_left(const test::Workspace& ws) {
  for (const std::string& name : ws.names())
    if (name.starts_with(".ozref-")) return true;
  return false;
}
}  // namespace

TEST_CASE("output file: a new file gets 0666 less the umask, a replaced one keeps its mode", "[io]") {
  test::Workspace ws;
  const mode_t mask = ::umask(022);
  write_file_atomically(ws.path("new"), "abc");
  CHECK((mode_of(ws.path("new")) & 07777) == 0644);
  CHECK(content(ws.path("new")) == "abc");
  const std::string secret = ws.file("secret", "old");
  REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  write_file_atomically(secret, "replaced");
  CHECK((mode_of(secret) & 07777) == 0600);
  CHECK(content(secret) == "replaced");
  ::umask(mask);
  CHECK(ws.names() == std::vector<std::string>{"new", "secret"});
}

TEST_CASE("output file: a device, FIFO, symbolic link or folder is refused and left as it is", "[io]") {
  test::Workspace ws;
  CHECK_THAT(refusal("/dev/null"), Catch::Contains("/dev/null: is a character device; ozref writes only to a new path"));
  CHECK(S_ISCHR(mode_of("/dev/null")));
  REQUIRE(::mkfifo(ws.path("fifo").c_str(), 0600) == 0);
  CHECK_THAT(refusal(ws.path("fifo")), Catch::Contains("fifo: is a FIFO (named pipe)"));
  CHECK(S_ISFIFO(mode_of(ws.path("fifo"))));
  const std::string target = ws.file("target", "kept");
  std::filesystem::create_symlink(target, ws.path("link"));
  CHECK_THAT(refusal(ws.path("link")), Catch::Contains("link: is a symbolic link"));
  CHECK(S_ISLNK(mode_of(ws.path("link"))));
  CHECK(content(target) == "kept");
  std::filesystem::create_directory(ws.path("folder"));
  CHECK_THAT(refusal(ws.path("folder")), Catch::Contains("folder: is a folder"));
  CHECK_THAT(refusal(ws.path("missing/x.npy")), Catch::Contains("x.npy: its folder") && Catch::Contains("missing does not exist"));
  CHECK_THAT(refusal(""), Catch::Contains("empty output file name"));
  CHECK_THROWS_WITH(check_output_file(ws.path("link"), "--out"), Catch::Contains("--out " + ws.path("link") + ": is a symbolic link"));
  CHECK_FALSE(temp_left(ws));
}

TEST_CASE("output file: names up to the file system's 255 bytes work, longer ones are refused", "[io]") {
  test::Workspace ws;
  for (size_t length : {245, 250, 255}) {
    const std::string path = ws.path(std::string(length - 4, 'n') + ".npy");
    write_file_atomically(path, "x");
    CHECK(content(path) == "x");
  }
  CHECK_THAT(refusal(ws.path(std::string(256, 'n'))), Catch::Contains("File name too long"));
  CHECK_FALSE(temp_left(ws));
}

TEST_CASE("output file: a failed write leaves the old file and no temporary file", "[io]") {
  test::Workspace ws;
  const std::string path = ws.file("c.npy", "old");
  const pid_t pid = ::fork();
  if (pid == 0) {  // a file size limit makes the write fail half-way (EFBIG)
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(path, std::string(100000, 'x'));
    } catch (const InputError& e) {
      ::_exit(std::string(e.what()).find("write failed: File too large") != std::string::npos ? 0 : 1);
    }
    ::_exit(2);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(content(path) == "old");
  CHECK(ws.names() == std::vector<std::string>{"c.npy"});
}

namespace {
// A child that writes `path` under a 1000-byte file size limit, where exceeding the limit raises
// SIGTERM in the middle of the write; with the cleanup installed or not. Its wait status.
int interrupted_write(const std::string& path, bool cleanup) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);  // as in a fresh ozref (not Catch's)
    if (cleanup) install_temp_file_cleanup();
    std::signal(SIGXFSZ, [](int) { std::raise(SIGTERM); });
    const rlimit limit{1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(path, std::string(100000, 'x'));
    } catch (const InputError&) {
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}
}  // namespace

TEST_CASE("output file: SIGTERM in the middle of a write leaves no temporary file", "[io]") {
  test::Workspace ws;
  const std::string path = ws.file("c.npy", "old");
  const int status = interrupted_write(path, true);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);  // the process still ends by the signal
  CHECK(content(path) == "old");
  CHECK(ws.names() == std::vector<std::string>{"c.npy"});
  // Control: without the handler the same interruption does leave the temporary file, so the
  // check above can fail.
  const int uncleaned = interrupted_write(path, false);
  REQUIRE(WIFSIGNALED(uncleaned));
  CHECK(temp_left(ws));
}

TEST_CASE("output file: an AtomicFile that is not committed leaves the target as it was and no temporary file", "[io]") {
  // The distributed exact's rank 0 holds one while the other ranks write their rows, and lets it
  // go when any of them failed (mpi/parallel_npy.cpp).
  test::Workspace ws;
  const std::string target = ws.file("c.npy", "old");
  ::chmod(target.c_str(), 0640);
  {
    AtomicFile file(target);
    file.write("header");
    file.reserve(4096);
    REQUIRE(temp_left(ws));
    REQUIRE((mode_of(file.temp_path()) & 0777) == 0640);  // the target's mode, from the start
  }
  CHECK(content(target) == "old");
  CHECK_FALSE(temp_left(ws));
  {
    AtomicFile file(target);
    file.write("new");
    file.reserve(8);
    file.commit();
  }
  CHECK(content(target) == std::string("new\0\0\0\0\0", 8));
  CHECK((mode_of(target) & 0777) == 0640);
  CHECK_FALSE(temp_left(ws));
}
