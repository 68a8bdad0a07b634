#include "io/temp_file.hpp"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

#include "io/folder.hpp"

namespace ozref {
namespace {

constexpr std::string_view kPrefix = ".ozref-";

// 8 hex digits of an FNV-1a hash of the host name.
std::string host_tag() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  uint32_t h = 0x811c9dc5u;
  for (const char* p = name; *p; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 0x01000193u;
  char tag[9];
  std::snprintf(tag, sizeof tag, "%08x", h);
  return tag;
}

// The process that made temporary `name` on this machine; 0 when `name` is not one.
pid_t owner_of(std::string_view name, const std::string& host) {
  if (!name.starts_with(kPrefix) || !(name.ends_with(".tmp") || name.ends_with(".dump"))) return 0;
  name.remove_prefix(kPrefix.size());
  if (!name.starts_with(host + "-")) return 0;
  name.remove_prefix(host.size() + 1);
  pid_t pid = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  if (ec != std::errc{} || pid <= 0 || end == name.data() + name.size() || *end != '-') return 0;
  return pid;
}

bool runs(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

}  // namespace

std::string temp_file_name(unsigned attempt, std::string_view kind) {
  const uint64_t mix = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^ (uint64_t(attempt) * 0x9e3779b97f4a7c15ULL);
  char name[80];
  std::snprintf(name, sizeof name, "%s%s-%ld-%08llx.%.*s", kPrefix.data(), host_tag().c_str(), static_cast<long>(::getpid()),
                static_cast<unsigned long long>(mix & 0xffffffffu), static_cast<int>(kind.size()), kind.data());
  return name;
}

void remove_stale_temp_files(const Folder& folder) {
  const int fd = ::openat(folder.fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* dir = fd >= 0 ? ::fdopendir(fd) : nullptr;
  if (!dir) {
    if (fd >= 0) ::close(fd);
    return;  // nothing to clean where the folder cannot be listed
  }
  const std::string host = host_tag();
  while (const dirent* e = ::readdir(dir)) {
    const pid_t pid = owner_of(e->d_name, host);
    if (pid == 0 || runs(pid)) continue;
    if (::unlinkat(folder.fd(), e->d_name, 0) != 0 && errno == EISDIR) {
      std::error_code ignored;  // remove_all removes links, never what they point to
      std::filesystem::remove_all(folder.path_of(e->d_name), ignored);
    }
  }
  ::closedir(dir);
}

}  // namespace ozref
