// The lines of a text file, plain or gzip-compressed (recognised by the gzip magic bytes 1f 8b),
// read strictly: a NUL byte, a line longer than kMaxLineBytes, corrupt or truncated gzip data and
// bytes after the last gzip member are InputErrors naming the file and line. Concatenated gzip
// members are one stream, as gzip(1) reads them. A gzip file is read up to kMaxTextBytes of text
// (64 GiB, ten thousand times the largest recorded trace): more is an InputError naming the file,
// so that a small file that expands without end (a "gzip bomb") cannot keep ozref busy for ever.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/input_file.hpp"

struct z_stream_s;

namespace ozref {

class LineReader {
 public:
  static constexpr size_t kMaxLineBytes = size_t{1} << 20;
  static constexpr uint64_t kMaxTextBytes = uint64_t{64} << 30;

  // `max_text_bytes`: the limit on a gzip file's text (tests lower it).
  explicit LineReader(const std::string& path, uint64_t max_text_bytes = kMaxTextBytes);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its line end (\n, or \r\n); false after the last one.
  bool next(std::string& line);
  size_t line_number() const { return line_number_; }  // of the line `next` returned last (1-based)
  const std::string& path() const { return file_.path(); }

 private:
  bool fill();  // more decompressed bytes into text_; false at the end of the data
  bool read_raw();  // more file bytes into raw_; false at the end of the file

  InputFile file_;
  std::unique_ptr<z_stream_s> zip_;  // null for a plain file
  std::vector<char> raw_, text_;  // file bytes; decompressed (or plain) text
  size_t raw_size_ = 0, text_used_ = 0, text_size_ = 0;
  uint64_t raw_end_offset_ = 0;  // file offset just past raw_'s bytes
  size_t line_number_ = 0;
  uint64_t max_text_bytes_, text_total_ = 0;  // the limit; the text decompressed so far
  bool member_ended_ = false;  // the last gzip member ended: only another member may follow
};

}  // namespace ozref
