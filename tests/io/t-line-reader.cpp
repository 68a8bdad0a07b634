// Text lines of plain and gzip files (io/line_reader.hpp): line ends, a NUL byte or an overlong
// line refused with file and line, gzip members concatenated, and corrupt, truncated or trailing
// gzip data refused. The gzip data is made with zlib's own writer (gzopen), not the reader.
#include <zlib.h>

#include "common/error.hpp"
#include "io/line_reader.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

namespace {
std::vector<std::string> lines_of(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> out;
  std::string line;
  while (reader.next(line)) {
    REQUIRE(reader.line_number() == out.size() + 1);
    out.push_back(line);
  }
  return out;
}

std::string refusal(const std::string& path) {
  try {
    lines_of(path);
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("read " << path << " without an error");
  return "";
}

// `text` gzip-compressed by zlib's file writer.
std::string gzip(const test::Workspace& ws, const std::string& text) {
  const std::string path = ws.path("tmp.gz");
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(gzwrite(f, text.data(), unsigned(text.size())) == int(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("line reader: line ends, blank lines and a last line without its newline", "[io]") {
  test::Workspace ws;
  CHECK(lines_of(ws.file("a", "one\r\ntwo\n\nthree")) == std::vector<std::string>{"one", "two", "", "three"});
  CHECK(lines_of(ws.file("b", "")).empty());
  CHECK(lines_of(ws.file("c", "\n")) == std::vector<std::string>{""});
  std::string many;  // lines across the reader's chunk boundaries
  for (int i = 0; i < 30000; ++i) many += std::to_string(i) + "\n";
  const auto got = lines_of(ws.file("many", many));
  REQUIRE(got.size() == 30000);
  CHECK(got[29999] == "29999");
}

TEST_CASE("line reader: a NUL byte or an overlong line is an error naming file and line", "[io]") {
  test::Workspace ws;
  CHECK_THAT(refusal(ws.file("nul", std::string("ok\nab\0cd\nnext\n", 15))), Catch::Contains("nul:2: a NUL byte at column 3"));
  const std::string gz_nul = ws.file("nul.gz", gzip(ws, std::string("x\ny\nz\0\n", 7)));
  CHECK_THAT(refusal(gz_nul), Catch::Contains("nul.gz:3: a NUL byte at column 2"));
  const std::string zeros = ws.file("zeros.gz", gzip(ws, std::string(1 << 22, '\0')));
  CHECK_THAT(refusal(zeros), Catch::Contains("zeros.gz:1: line longer than"));
  CHECK_THAT(refusal(ws.file("long", "short\n" + std::string(LineReader::kMaxLineBytes + 1, 'x'))),
             Catch::Contains("long:2: line longer than 1048576 bytes"));
  CHECK(lines_of(ws.file("longest", std::string(LineReader::kMaxLineBytes, 'x'))).size() == 1);
}

TEST_CASE("line reader: gzip members, and corrupt, truncated or trailing gzip data", "[io]") {
  test::Workspace ws;
  const std::string first = gzip(ws, "a\nb\n"), second = gzip(ws, "c\n");
  CHECK(lines_of(ws.file("one.gz", first)) == std::vector<std::string>{"a", "b"});
  CHECK(lines_of(ws.file("two.gz", first + second)) == std::vector<std::string>{"a", "b", "c"});
  CHECK_THAT(refusal(ws.file("junk.gz", first + "junk")),
             Catch::Contains("junk.gz: data after the end of the gzip stream (at byte " + std::to_string(first.size()) + ")"));
  CHECK_THAT(refusal(ws.file("junk2.gz", first + "\x1f" "garbage")), Catch::Contains("junk2.gz: corrupt gzip data"));
  CHECK_THAT(refusal(ws.file("cut.gz", first.substr(0, first.size() - 6))), Catch::Contains("cut.gz: truncated gzip data"));
  std::string corrupt = first;
  corrupt[corrupt.size() - 8] = char(corrupt[corrupt.size() - 8] ^ 0xff);  // the CRC-32 of the member
  CHECK_THAT(refusal(ws.file("bad.gz", corrupt)), Catch::Contains("bad.gz: corrupt gzip data near byte") &&
                                                      Catch::Contains("incorrect data check"));
}

TEST_CASE("line reader: a gzip file that expands past the limit is refused naming the file", "[io]") {
  test::Workspace ws;
  // 8 MiB of text in a file of a few KiB: a small "gzip bomb" against a limit of 4 MiB.
  const std::string line(1023, 'x');
  std::string text;
  for (int i = 0; i < 8192; ++i) text += line + "\n";
  const std::string path = ws.path("bomb.jsonl.gz");
  gzFile z = gzopen(path.c_str(), "wb9");
  REQUIRE(z);
  REQUIRE(gzwrite(z, text.data(), unsigned(text.size())) == int(text.size()));
  REQUIRE(gzclose(z) == Z_OK);
  const auto read_all = [&](uint64_t limit) {
    LineReader reader(path, limit);
    size_t lines = 0;
    for (std::string l; reader.next(l);) ++lines;
    return lines;
  };
  CHECK_THROWS_WITH(read_all(uint64_t{4} << 20), Catch::Contains("bomb.jsonl.gz: more than 4194304 bytes once decompressed"));
  CHECK(read_all(text.size()) == 8192);  // exactly at the limit: read whole
}
