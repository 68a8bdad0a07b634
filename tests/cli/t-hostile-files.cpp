// Hostile and careless files on the command line (issue 12): outputs that are devices, FIFOs,
// symbolic links or private files; inputs that never end, block, hold a NUL byte or trail junk;
// a probe folder with a quote in its name, unwritable or unreadable; huge products from tiny
// files. Each is refused with exit code 2 and a message naming the file, or works as documented,
// and nothing else on disk changes.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <zlib.h>

#include "cli/cli_support.hpp"
#include "io/npy.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;
using test::run_ozref;

namespace {
struct Files : test::Workspace {
  std::string a, b;
  Files() {
    Matrix<double> ma(2, 3, 0.5), mb(3, 2, 4.0);
    a = path("a.npy");
    b = path("b.npy");
    write_npy(a, npy_from_matrix(ma));
    write_npy(b, npy_from_matrix(mb));
  }
  test::CommandResult exact(const std::string& out) { return run_ozref({"exact", "--a", a, "--b", b, "--out", out}); }
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

std::string content(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// 32 int8 ones, as a record's hex operand.
std::string ones() {
  std::string s;
  for (int i = 0; i < 32; ++i) s += "01";
  return s;
}

// One int8 mma.sync record of 32 ones times 32 ones (32, 0x20 exactly); `d` is the recorded result.
std::string int8_record(const std::string& d, const std::string& a = ones()) {
  return "{\"op\":\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32\",\"a\":\"" + a + "\",\"b\":\"" + ones() +
         "\",\"c\":\"00000000\",\"d\":\"" + d + "\"}\n";
}

std::string gzip(const std::string& text) {
  std::string out(compressBound(uLong(text.size())) + 64, '\0');
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = uInt(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

void require_refusal(const test::CommandResult& r, const std::string& verb, const std::string& needle) {
  INFO("stderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("ozref " + verb + ": error: "));
  CHECK(r.err.find(needle) != std::string::npos);
}
}  // namespace

TEST_CASE("hostile files: --out never replaces a device, FIFO or symbolic link", "[cli]") {
  Files ws;
  require_refusal(ws.exact("/dev/null"), "exact", "--out /dev/null: is a character device");
  CHECK(S_ISCHR(mode_of("/dev/null")));
  REQUIRE(::mkfifo(ws.path("fifo").c_str(), 0600) == 0);
  require_refusal(ws.exact(ws.path("fifo")), "exact", "fifo: is a FIFO");
  CHECK(S_ISFIFO(mode_of(ws.path("fifo"))));
  const std::string target = ws.file("elsewhere.npy", "not to be touched");
  std::filesystem::create_symlink(target, ws.path("link.npy"));
  require_refusal(ws.exact(ws.path("link.npy")), "exact", "link.npy: is a symbolic link");
  CHECK(S_ISLNK(mode_of(ws.path("link.npy"))));
  CHECK(content(target) == "not to be touched");
  CHECK(ws.names() == std::vector<std::string>{"a.npy", "b.npy", "elsewhere.npy", "fifo", "link.npy"});
}

TEST_CASE("hostile files: --out keeps an existing file's mode, and names of 245 to 255 bytes work", "[cli]") {
  Files ws;
  const std::string secret = ws.file("c.npy", "old");
  REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  REQUIRE(ws.exact(secret).code == 0);
  CHECK((mode_of(secret) & 07777) == 0600);
  CHECK(matrix_from_npy(read_npy(secret), secret)(1, 1) == 6.0);  // 3 * 0.5 * 4
  for (size_t length : {245, 255}) {
    const std::string name = std::string(length - 4, 'c') + ".npy";
    const test::CommandResult r = ws.exact(ws.path(name));
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(std::filesystem::exists(ws.path(name)));
  }
  for (const std::string& name : ws.names()) CHECK_FALSE(name.starts_with(".ozref-"));
}

TEST_CASE("hostile files: inputs that never end, block or are folders are refused at once", "[cli]") {
  Files ws;
  REQUIRE(::mkfifo(ws.path("fifo").c_str(), 0600) == 0);  // no writer: reading it would block
  require_refusal(run_ozref({"mma-check", "--trace", "/dev/zero"}), "mma-check", "/dev/zero: is a character device");
  require_refusal(run_ozref({"mma-check", "--trace", ws.path("fifo")}), "mma-check", "fifo: is a FIFO");
  require_refusal(run_ozref({"exact", "--a", "/dev/zero", "--b", ws.b, "--out", ws.path("c.npy")}), "exact",
                  "/dev/zero: is a character device");
  require_refusal(run_ozref({"check", "--a", ws.a, "--b", ws.b, "--c", ws.path("fifo")}), "check", "fifo: is a FIFO");
  require_refusal(run_ozref({"exact", "--a", ws.dir.string(), "--b", ws.b, "--out", ws.path("c.npy")}), "exact", ": is a folder");
  CHECK_FALSE(std::filesystem::exists(ws.path("c.npy")));
}

TEST_CASE("hostile files: a NUL byte in a trace line, trailing gzip junk and a 10 MB bad operand", "[cli]") {
  Files ws;
  const std::string good = int8_record("00000020");
  CHECK(run_ozref({"mma-check", "--trace", ws.file("good.jsonl", good + good)}).code == 0);
  std::string nul = good + good;
  nul[good.size() + 10] = '\0';  // line 2: dropping the rest of it would glue line 3 onto it
  require_refusal(run_ozref({"mma-check", "--trace", ws.file("nul.jsonl", nul + good)}), "mma-check",
                  "nul.jsonl:2: a NUL byte at column 11");
  require_refusal(run_ozref({"mma-check", "--trace", ws.file("junk.jsonl.gz", gzip(good) + "trailing junk")}), "mma-check",
                  "junk.jsonl.gz: data after the end of the gzip stream");
  CHECK(run_ozref({"mma-check", "--trace", ws.file("two.jsonl.gz", gzip(good) + gzip(good))}).code == 0);
  std::string big(1 << 19, 'a');  // an operand of 512 KiB: its error quotes 48 characters of it
  big[1 << 18] = 'z';
  const test::CommandResult r = run_ozref({"mma-check", "--trace", ws.file("big.jsonl", int8_record("00000020", big))});
  require_refusal(r, "mma-check", "big.jsonl:1: \"a\" is not hex at digit 262145: 'aaaa");
  CHECK(r.err.find("...' (524288 characters)") != std::string::npos);
  CHECK(r.err.size() < 300);
  const std::string huge(10 << 20, 'a');  // 10 MB: longer than any trace line may be
  require_refusal(run_ozref({"mma-check", "--trace", ws.file("huge.jsonl", int8_record("00000020", huge))}), "mma-check",
                  "huge.jsonl:1: line longer than 1048576 bytes");
}

TEST_CASE("hostile files: a non-UTF-8 file name in --json output is written, not thrown", "[cli]") {
  Files ws;
  const std::string name = ws.file("trace-\xff\xfe.jsonl", int8_record("00000021"));  // a mismatch: its file is named
  const test::CommandResult r = run_ozref({"mma-check", "--json", "--trace", name});
  INFO(r.err);
  REQUIRE(r.code == 1);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["mismatched"] == 1);
  CHECK(j["first_mismatches"][0]["where"].get<std::string>().ends_with("trace-\xef\xbf\xbd\xef\xbf\xbd.jsonl:1"));
}

TEST_CASE("hostile files: an empty K makes no huge product from tiny files", "[cli]") {
  Files ws;
  NpyArray wide;
  wide.dtype = DType::F8;
  wide.shape = {1 << 20, 0};
  write_npy(ws.path("tall.npy"), wide);
  wide.shape = {0, 1 << 20};
  write_npy(ws.path("wide.npy"), wide);
  require_refusal(run_ozref({"exact", "--a", ws.path("tall.npy"), "--b", ws.path("wide.npy"), "--out", ws.path("c.npy")}), "exact",
                  "tall.npy, 1048576x0) and B (" + ws.path("wide.npy") + ", 0x1048576) would need");
}

namespace {
// A stand-in for device/mma_probe: records the folder it was given, then says "no GPU" (77).
std::string fake_probe(const test::Workspace& ws) {
  const std::string path = ws.file("fake_probe.sh", "#!/bin/sh\nprintf '%s' \"$1\" > \"$1/argv1\"\nexit 77\n");
  REQUIRE(::chmod(path.c_str(), 0755) == 0);
  return path;
}
}  // namespace

TEST_CASE("hostile files: probe passes --out to its program as one argument, through no shell", "[cli]") {
  Files ws;
  const std::string out = ws.path("probes'; touch pwned; echo '");
  const test::CommandResult r = run_ozref({"probe", "--out", out, "--probe-binary", fake_probe(ws)});
  INFO(r.out << r.err);
  CHECK(r.code == 77);
  CHECK(content(out + "/argv1") == out);
  CHECK_FALSE(std::filesystem::exists("pwned"));
  CHECK_FALSE(std::filesystem::exists(ws.path("pwned")));
  require_refusal(run_ozref({"probe", "--out", ws.path("p"), "--probe-binary", ws.path("missing")}), "probe",
                  "missing: probe program not found or not executable");
  require_refusal(run_ozref({"probe", "--out", ws.path("p"), "--traces", ws.dir.string()}), "probe", "exclude each other");
  require_refusal(run_ozref({"probe", "--traces", ws.dir.string(), "--probe-binary", fake_probe(ws)}), "probe",
                  "--probe-binary applies to --out only");
}

TEST_CASE("hostile files: probe on an unwritable or unreadable folder is refused with its name", "[cli]") {
  Files ws;
  const std::string probe = fake_probe(ws);
  require_refusal(run_ozref({"probe", "--out", "/proc/ozref-probe/out", "--probe-binary", probe}), "probe",
                  "--out /proc/ozref-probe/out: cannot create the folder");
  std::filesystem::create_directory(ws.path("locked"));
  REQUIRE(::chmod(ws.path("locked").c_str(), 0555) == 0);
  require_refusal(test::run_ozref_unprivileged({"probe", "--out", ws.path("locked"), "--probe-binary", probe}), "probe",
                  "locked: the folder is not writable");
  require_refusal(test::run_ozref_unprivileged({"probe", "--out", ws.path("locked/sub"), "--probe-binary", probe}), "probe",
                  "locked/sub: cannot create the folder: Permission denied");
  std::filesystem::create_directory(ws.path("closed"));
  ws.file("closed/t.jsonl", int8_record("00000020"));
  REQUIRE(::chmod(ws.path("closed").c_str(), 0000) == 0);
  require_refusal(test::run_ozref_unprivileged({"probe", "--traces", ws.path("closed")}), "probe",
                  "closed: cannot list the folder: Permission denied");
  REQUIRE(::chmod(ws.path("closed").c_str(), 0755) == 0);
  REQUIRE(::chmod(ws.path("closed/t.jsonl").c_str(), 0000) == 0);
  require_refusal(test::run_ozref_unprivileged({"probe", "--traces", ws.path("closed")}), "probe",
                  "t.jsonl: cannot open for reading: Permission denied");
}

TEST_CASE("hostile files: probe --traces names the file and line of a record it cannot replay", "[cli]") {
  Files ws;
  ws.file("t.jsonl", int8_record("00000020") + "{\"op\":\"mma.sync.no.such.op\",\"a\":\"00\",\"b\":\"00\",\"c\":\"00000000\",\"d\":\"00000000\"}\n");
  require_refusal(run_ozref({"probe", "--traces", ws.path("t.jsonl")}), "probe", "t.jsonl:2: ");
  ws.file("short.jsonl", "\n" + int8_record("00000020", "0101"));
  require_refusal(run_ozref({"probe", "--traces", ws.path("short.jsonl")}), "probe", "short.jsonl:2: ");
  require_refusal(run_ozref({"probe", "--traces", ws.path("nul.jsonl")}), "probe", "nul.jsonl: cannot open for reading");
}
