// Every file ozref reads is opened here. Only regular files are read (through a symbolic link
// too, except for a file inside a folder opened as io/folder.hpp's handle): a folder, FIFO, device or socket is refused by name, so that no input can block (a FIFO
// without a writer), never end (/dev/zero) or hide its size. The size is known before anything is
// allocated and bounded by the memory budget.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace ozref {

class Folder;

class InputFile {
 public:
  // InputError naming the path when it is missing, unreadable or not a regular file.
  explicit InputFile(const std::string& path);
  // The file `name` of `folder`, opened relative to its handle; a symbolic link is refused too.
  InputFile(const Folder& folder, const std::string& name);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }  // when opened
  // Up to `n` bytes into `buffer`; 0 at the end of the file. InputError on a read error.
  size_t read(char* buffer, size_t n);
  // Exactly `n` bytes from `offset` (the file position is not used); InputError when the file
  // ends before them (it shrank after it was opened) or on a read error.
  void read_at(char* buffer, size_t n, uint64_t offset);

 private:
  void require_regular();  // after fd_ was opened: closes it and throws unless a regular file

  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// InputError unless a file of this size fits `max_bytes` (what ozref can hold in memory).
void require_file_fits(const InputFile& file, uint64_t max_bytes);
// The whole file; InputError when it holds more than `max_bytes` (checked before reading).
std::string read_input_file(const std::string& path, uint64_t max_bytes);
std::string read_input_file(InputFile& file, uint64_t max_bytes);
// The same, bounded by the memory budget (common/memory_budget.hpp).
std::string read_input_file(const std::string& path);

// The path as error messages quote it: an empty path is named as such.
std::string path_text(const std::string& path);

// What a file of this mode (stat's st_mode) is, for messages ("a folder", "a FIFO (named pipe)",
// "a symbolic link", ...); null for a regular file.
const char* non_regular_kind(mode_t mode);

}  // namespace ozref
