#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "common/error.hpp"

namespace ozref {

void write_file_atomically(const std::string& path, std::string_view bytes) {
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw InputError(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(name.data());
      throw InputError(path + ": write failed: " + why);
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(name.data());
    throw InputError(path + ": write failed: " + why);
  }
  ::chmod(name.data(), 0644);
  if (std::rename(name.data(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(name.data());
    throw InputError(path + ": cannot move the finished file into place: " + why);
  }
}

}  // namespace ozref
