#include "io/line_reader.hpp"

#include <zlib.h>

#include <cstring>

#include "common/error.hpp"

namespace ozref {
namespace {
constexpr size_t kChunk = size_t{1} << 16;
}

LineReader::LineReader(const std::string& path, uint64_t max_text_bytes)
    : file_(path), raw_(kChunk), text_(4 * kChunk), max_text_bytes_(max_text_bytes) {
  read_raw();
  if (raw_size_ >= 2 && static_cast<uint8_t>(raw_[0]) == 0x1f && static_cast<uint8_t>(raw_[1]) == 0x8b) {
    zip_ = std::make_unique<z_stream>();
    if (inflateInit2(zip_.get(), 16 + MAX_WBITS) != Z_OK) throw InputError(path + ": cannot start gzip decompression");
    zip_->next_in = reinterpret_cast<Bytef*>(raw_.data());
    zip_->avail_in = static_cast<uInt>(raw_size_);
  } else {
    std::memcpy(text_.data(), raw_.data(), raw_size_);
    text_size_ = raw_size_;
  }
}

LineReader::~LineReader() {
  if (zip_) inflateEnd(zip_.get());
}

bool LineReader::read_raw() {
  raw_size_ = file_.read(raw_.data(), raw_.size());
  raw_end_offset_ += raw_size_;
  if (zip_) {
    zip_->next_in = reinterpret_cast<Bytef*>(raw_.data());
    zip_->avail_in = static_cast<uInt>(raw_size_);
  }
  return raw_size_ > 0;
}

bool LineReader::fill() {
  text_used_ = text_size_ = 0;
  if (!zip_) {
    text_size_ = file_.read(text_.data(), text_.size());
    return text_size_ > 0;
  }
  while (text_size_ == 0) {
    if (zip_->avail_in == 0 && !read_raw()) {
      if (member_ended_) return false;
      throw InputError(path() + ": truncated gzip data (the file ends inside a compressed member)");
    }
    if (member_ended_) {  // what follows a member must be another member
      const uint64_t offset = raw_end_offset_ - zip_->avail_in;
      if (static_cast<uint8_t>(*zip_->next_in) != 0x1f)
        throw InputError(path() + ": data after the end of the gzip stream (at byte " + std::to_string(offset) + ")");
      inflateReset(zip_.get());
      member_ended_ = false;
    }
    zip_->next_out = reinterpret_cast<Bytef*>(text_.data());
    zip_->avail_out = static_cast<uInt>(text_.size());
    const int rc = inflate(zip_.get(), Z_NO_FLUSH);
    text_size_ = text_.size() - zip_->avail_out;
    if ((text_total_ += text_size_) > max_text_bytes_)
      throw InputError(path() + ": more than " + std::to_string(max_text_bytes_) + " bytes once decompressed (ozref's limit for a gzip file)");
    if (rc == Z_STREAM_END) {
      member_ended_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      const uint64_t offset = raw_end_offset_ - zip_->avail_in;
      throw InputError(path() + ": corrupt gzip data near byte " + std::to_string(offset) + ": " +
                       (zip_->msg ? zip_->msg : "inflate error " + std::to_string(rc)));
    }
  }
  return true;
}

bool LineReader::next(std::string& line) {
  line.clear();
  while (true) {
    if (text_used_ == text_size_ && !fill()) {
      if (line.empty()) return false;
      break;
    }
    const char* begin = text_.data() + text_used_;
    const size_t available = text_size_ - text_used_;
    const char* end = static_cast<const char*>(std::memchr(begin, '\n', available));
    const size_t take = end ? size_t(end - begin) : available;
    if (line.size() + take > kMaxLineBytes)
      throw InputError(path() + ":" + std::to_string(line_number_ + 1) + ": line longer than " + std::to_string(kMaxLineBytes) +
                       " bytes");
    line.append(begin, take);
    text_used_ += take + (end ? 1 : 0);
    if (end) break;
  }
  ++line_number_;
  if (const void* nul = std::memchr(line.data(), '\0', line.size()))
    throw InputError(path() + ":" + std::to_string(line_number_) + ": a NUL byte at column " +
                     std::to_string(static_cast<const char*>(nul) - line.data() + 1) + " (a text line must not hold one)");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

}  // namespace ozref
