#include "mpi/rank_agreement.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"
#include "common/phase_clock.hpp"
#include "mpi/mpi_world.hpp"
#include "trace/trace.hpp"

namespace ozref::mpi {
namespace {

uint64_t hash_more(uint64_t h, const void* bytes, size_t count) { return fnv1a64(h, static_cast<const uint8_t*>(bytes), count); }

// Each argument with its length first, so that ("ab", "c") and ("a", "bc") differ.
uint64_t arguments_hash(const std::vector<std::string>& args) {
  uint64_t h = kFnv1a64Start;
  for (const std::string& a : args) {
    const uint64_t length = a.size();
    h = hash_more(hash_more(h, &length, sizeof length), a.data(), a.size());
  }
  return h;
}

std::string joined(const std::vector<std::string>& args) {
  std::string all;
  for (const std::string& a : args) all += a + '\0';
  return all;
}

std::vector<std::string> split(const std::string& all) {
  std::vector<std::string> args;
  for (size_t at = 0, end; (end = all.find('\0', at)) != std::string::npos; at = end + 1) args.push_back(all.substr(at, end - at));
  return args;
}

std::string argument_or_none(const std::vector<std::string>& args, size_t i) {
  return i < args.size() ? quoted_excerpt(args[i]) : std::string("nothing");
}

// Rank 0's words for the first rank whose arguments differ from its own.
std::string first_difference(const std::vector<std::string>& per_rank) {
  const std::vector<std::string> root = split(per_rank[0]);
  for (size_t r = 1; r < per_rank.size(); ++r) {
    const std::vector<std::string> other = split(per_rank[r]);
    if (other == root) continue;
    size_t i = 0;
    while (i < root.size() && i < other.size() && root[i] == other[i]) ++i;
    return "the ranks were started with different arguments: argument " + std::to_string(i + 1) + " is " + argument_or_none(root, i) +
           " on rank 0 but " + argument_or_none(other, i) + " on rank " + std::to_string(r) +
           " (every rank must be given the same command line; docs/scale.md)";
  }
  return "the ranks were started with different arguments (every rank must be given the same command line; docs/scale.md)";
}

// A file's size and hash, or the errno that stopped its reading (hash and size then 0).
struct FileDigest {
  uint64_t size = 0, hash = 0;
  int64_t error = 0;
};

FileDigest digest_of(const std::string& path) {
  FileDigest d{.size = 0, .hash = kFnv1a64Start, .error = 0};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {.size = 0, .hash = 0, .error = errno};
  std::vector<uint8_t> buffer(size_t{1} << 20);
  for (ssize_t got; (got = ::read(fd, buffer.data(), buffer.size())) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      d = {.size = 0, .hash = 0, .error = errno};
      break;
    }
    d.size += uint64_t(got);
    d.hash = fnv1a64(d.hash, buffer.data(), size_t(got));
  }
  ::close(fd);
  return d;
}

bool operator==(const FileDigest& x, const FileDigest& y) { return x.size == y.size && x.hash == y.hash && x.error == y.error; }

std::string described(const FileDigest& d) {
  if (d.error) return "cannot read it (" + std::string(std::strerror(int(d.error))) + ")";
  char hash[24];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(d.hash));
  return "reads " + std::to_string(d.size) + " bytes (FNV-1a " + hash + ")";
}

}  // namespace

std::string command_line_disagreement(int argc, const char* const* argv) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  const uint64_t mine = arguments_hash(args);
  const std::vector<char> hashes = gather_on_every_rank(&mine, sizeof mine);
  bool same = true;
  for (size_t r = 1; r < size_t(ranks()); ++r) same = same && std::memcmp(hashes.data(), hashes.data() + r * sizeof mine, sizeof mine) == 0;
  if (same) return "";
  const std::vector<std::string> per_rank = gather_strings_on_root(joined(args));  // every rank knows it must take part
  return rank() == 0 ? first_difference(per_rank) : "the ranks were started with different arguments";
}

void agree_on_inputs(const std::vector<NamedInput>& inputs) {
  std::vector<FileDigest> mine;
  {
    const PhaseTimer timer(Phase::Read);
    for (const NamedInput& input : inputs) mine.push_back(digest_of(input.path));
  }
  const std::vector<char> all = gather_on_every_rank(mine.data(), mine.size() * sizeof(FileDigest));
  const auto digest = [&](size_t r, size_t i) {
    FileDigest d;
    std::memcpy(&d, all.data() + (r * inputs.size() + i) * sizeof d, sizeof d);
    return d;
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    for (size_t r = 1; r < size_t(ranks()); ++r)
      if (!(digest(r, i) == digest(0, i)))
        throw InputError(inputs[i].option + " " + quoted_excerpt(inputs[i].path) + " differs between the ranks: rank 0 " + described(digest(0, i)) +
                         ", rank " + std::to_string(r) + " " + described(digest(r, i)) +
                         " (every rank must read the same inputs; docs/scale.md)");
}

}  // namespace ozref::mpi
