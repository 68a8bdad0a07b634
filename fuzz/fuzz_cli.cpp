// fuzz_cli: whole ozref command lines (cli/command_line.hpp), as a careless or hostile user types
// them, on small files that the input also makes (verbs and options are only ever appended to the
// tables below, so that a corpus input keeps its meaning). Byte 0 picks the verb; byte 1 how many options
// follow (0..7) and whether the verb's required options are left out; then two bytes per option:
// which of the verb's options and which value from its table (good values and bad ones: negative,
// past 2^31 and 2^64, NaN, devices, a FIFO, a symbolic link leading out of the work folder, a
// folder, names that are not UTF-8 or 250 bytes long, a quote). The next bytes make the files:
// A, B and C (.npy, up to 3 x 3, any bit patterns, f8 or f4), zero-sized operands that agree with
// them (0 rows, 0 columns, k = 0; every scheme must take them), two trace folders holding A and B
// under the same name, and the rest is the text of a trace (also gzip-compressed, with trailing
// junk when a flag says so) and of a file named bad.npy. The trace folders' manifests are fixed here;
// fuzz_trace edits real traces field by field. Checks: the exit code is 0, 1, 2 or 77; exit 2 comes
// with one line "ozref <verb>: error: ..."; nothing outside the work folder changes (the file the
// symbolic link leads to, /dev/null, the current folder) and no temporary file is left in it.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "common/memory_budget.hpp"
#include "io/npy.hpp"
#include "ozref_command.hpp"

namespace {

namespace fs = std::filesystem;
using Values = std::vector<std::string>;

// "@name" is a file in the work folder; anything else is used as it is.
const Values kInputs = {"@a.npy", "@b.npy", "@c.npy", "@bad.npy", "@t.jsonl", "@t.jsonl.gz", "@good.jsonl", "@\xff\xfe.jsonl",
                        "@fifo", "@link.npy", "@dir", "@missing.npy", "/dev/zero", "/dev/null", "", "@trace", "@trace2",
                        "@zero-m-a.npy", "@zero-n-b.npy", "@zero-k-a.npy", "@zero-k-b.npy"};
const Values kOutputs = {"@out.npy", "@c.npy", "@ro.npy", "@fifo", "@link.npy", "@dir", "@missing/x.npy", "/dev/null",
                         "@" + std::string(246, 'o') + ".npy", "", "@\xff.npy", "@trace/out.npy"};
const Values kFolders = {"@probes", "@dir", "@fifo", "@a.npy", "@link.npy", "/proc/ozref-fuzz", "@probes'; touch pwned; '", ""};
const Values kSizes = {"1", "2", "3", "0", "-1", "2147483648", "18446744073709551616", "1e3", "abc", "", "+1", " 2", "0x10"};
const Values kSeeds = {"1", "0", "18446744073709551615", "18446744073709551616", "-1", "7x"};
const Values kPhis = {"1", "0", "4", "64", "65", "-1", "nan", "inf", "1e400", "x"};
const Values kThreads = {"0", "1", "2", "-1", "100000", "abc"};
const Values kArchs = {"sm_90", "ideal", "sm_120", "sm_80", "nosuch", ""};
const Values kProbes = {"/bin/true", "/bin/false", "@missing", "@a.npy"};
const Values kTheorems = {"gemm_count.ozaki2_fp8", "int8_on_fp4", "no.such.theorem"};
const Values kSchemes = {"ozaki2-int8", "ozaki2-fp8", "ozaki1-int8", "int8-on-fp4", "rare", "nosuch",
                         "ozaki2-fp4", "ozaki1-fp4", "gemmul8@2.0.14", "cublas-fixedpoint@13.1"};
const Values kCounts = {"0", "2", "3", "21", "-1", "x"};
const Values kDists = {"phi:1", "integers:3", "phi:nan", "phi:-1", "randn", "nosuch"};
const Values kVerifies = {"full", "cheap", "none", "nosuch"};

struct Option {
  const char* name;      // "" for a positional argument
  const Values* values;  // null for a flag
};
// An option's value added when the input does not give the option: unless the input leaves the
// required ones out, or always (prove's --only: all theorems take minutes under the sanitizers).
struct Default {
  std::string name;  // "" for a positional argument
  std::string value;
  bool always = false;
};
struct Verb {
  const char* name;
  std::vector<Option> options;
  std::vector<Default> required;
};

const std::vector<Verb>& verbs() {
  static const std::vector<Verb> all = {
      {"exact", {{"--a", &kInputs}, {"--b", &kInputs}, {"--out", &kOutputs}, {"--threads", &kThreads}},
       {{"--a", "@a.npy"}, {"--b", "@b.npy"}, {"--out", "@out.npy"}}},
      {"check", {{"--a", &kInputs}, {"--b", &kInputs}, {"--c", &kInputs}, {"--json", nullptr}, {"--threads", &kThreads}},
       {{"--a", "@a.npy"}, {"--b", "@b.npy"}, {"--c", "@c.npy"}}},
      {"demo",
       {{"--m", &kSizes}, {"--n", &kSizes}, {"--k", &kSizes}, {"--phi", &kPhis}, {"--seed", &kSeeds}, {"--json", nullptr},
        {"--threads", &kThreads}},
       {{"--m", "2"}, {"--n", "2"}, {"--k", "3"}}},
      {"mma-check", {{"--trace", &kInputs}, {"--arch", &kArchs}, {"--json", nullptr}}, {{"--trace", "@good.jsonl"}}},
      {"probe", {{"--out", &kFolders}, {"--traces", &kInputs}, {"--probe-binary", &kProbes}, {"--arch", &kArchs}, {"--json", nullptr}},
       {{"--traces", "@good.jsonl"}}},
      {"prove", {{"--only", &kTheorems}, {"--long", nullptr}, {"--json", nullptr}}, {{"--only", "gemm_count.ozaki2_fp8", true}}},
      {"run",
       {{"--scheme", &kSchemes}, {"--m", &kSizes}, {"--n", &kSizes}, {"--k", &kSizes}, {"--moduli", &kCounts},
        {"--slices", &kCounts}, {"--out", &kOutputs}, {"--dump", &kFolders}, {"--dist", &kDists}, {"--verify", &kVerifies},
        {"--seed", &kSeeds}, {"--arch", &kArchs}, {"--complex", nullptr}, {"--json", nullptr}, {"--threads", &kThreads},
        {"--a", &kInputs}, {"--b", &kInputs}},
       {{"--m", "2"}, {"--n", "2"}, {"--k", "3"}}},
      {"diff", {{"", &kInputs}, {"--json", nullptr}}, {{"", "@trace"}, {"", "@trace"}}},
      {"lockstep",
       {{"--scheme", &kSchemes}, {"--m", &kSizes}, {"--n", &kSizes}, {"--k", &kSizes}, {"--a", &kInputs}, {"--b", &kInputs},
        {"--moduli", &kCounts}, {"--dump", &kFolders}, {"--seed", &kSeeds}, {"--json", nullptr}, {"--threads", &kThreads}},
       {{"--m", "2"}, {"--n", "2"}, {"--k", "3"}}},
      {"verify-trace",
       {{"", &kInputs}, {"--a", &kInputs}, {"--b", &kInputs}, {"--verify", &kVerifies}, {"--reproducers", &kFolders},
        {"--json", nullptr}, {"--threads", &kThreads}},
       {{"", "@trace"}}},
  };
  return all;
}

struct Folders {
  fs::path base, work, sentinel, cwd;
  std::set<std::string> cwd_names;
};

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.insert(it->path().filename().string());
  return out;
}

// The names in the folder less libFuzzer's own artifacts (crash-, slow-unit-, ... files it writes
// into the current folder).
std::set<std::string> ozref_names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const std::string& name : names_in(dir))
    if (!name.starts_with("crash-") && !name.starts_with("slow-unit-") && !name.starts_with("timeout-") &&
        !name.starts_with("oom-") && !name.starts_with("leak-"))
      out.insert(name);
  return out;
}

std::string content(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void put(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

std::string gzip(const std::string& text) {
  std::string out(compressBound(uLong(text.size())) + 64, '\0');
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = uInt(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_cli: %s\n", what.c_str());
  std::abort();
}

const Folders& folders() {
  static const Folders f = [] {
    Folders f;
    std::string tmpl = (fs::temp_directory_path() / "ozref-fuzz-cli-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) fail("cannot create the work folder");
    f.base = tmpl;
    f.work = f.base / "work";
    f.sentinel = f.base / "sentinel";
    fs::create_directories(f.sentinel);
    put(f.sentinel / "target", "sentinel");
    f.cwd = fs::current_path();
    f.cwd_names = ozref_names_in(f.cwd);
    ozref::set_memory_budget(uint64_t{64} << 20);  // below libFuzzer's malloc limit
    return f;
  }();
  return f;
}

// The work folder's files, made from the input bytes from `at` on.
void make_files(const Folders& f, const uint8_t* data, size_t size, size_t at) {
  fs::remove_all(f.work);
  fs::create_directories(f.work / "dir");
  auto byte = [&]() -> uint8_t { return at < size ? data[at++] : 0; };
  const size_t m = byte() % 4, k = byte() % 4, n = byte() % 4;
  const uint8_t flags = byte();
  auto matrix = [&](const char* name, size_t rows, size_t cols) {
    ozref::NpyArray a;
    a.dtype = flags & 1 ? ozref::DType::F4 : ozref::DType::F8;
    a.shape = {rows, cols};
    a.data.resize(a.elements() * ozref::dtype_size(a.dtype));
    for (uint8_t& b : a.data) b = byte();
    put(f.work / name, ozref::serialize_npy(a));
  };
  matrix("a.npy", m, k);
  matrix("b.npy", k, n);
  matrix("c.npy", m, n);
  // zero-sized operands that agree with A and B in their other dimension: 0 x k, k x 0, m x 0, 0 x n
  matrix("zero-m-a.npy", 0, k);
  matrix("zero-n-b.npy", k, 0);
  matrix("zero-k-a.npy", m, 0);
  matrix("zero-k-b.npy", 0, n);
  const std::string text(reinterpret_cast<const char*>(data) + std::min(at, size), size - std::min(at, size));
  put(f.work / "t.jsonl", text);
  put(f.work / "\xff\xfe.jsonl", text);
  put(f.work / "t.jsonl.gz", gzip(text) + (flags & 2 ? "junk" : ""));
  put(f.work / "bad.npy", text);
  std::string ones;
  for (int i = 0; i < 32; ++i) ones += "01";
  put(f.work / "good.jsonl", "{\"op\":\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32\",\"a\":\"" + ones + "\",\"b\":\"" + ones +
                                 "\",\"c\":\"00000000\",\"d\":\"" + (flags & 4 ? "00000021" : "00000020") + "\"}\n");
  for (const char* trace : {"trace", "trace2"}) {
    fs::create_directories(f.work / trace);
    put(f.work / trace / "manifest.json", R"({"stages": [{"name": "s", "arrays": [{"name": "x", "file": "x.npy"}]}]})");
  }
  fs::copy_file(f.work / "a.npy", f.work / "trace" / "x.npy");
  fs::copy_file(f.work / "b.npy", f.work / "trace2" / "x.npy");
  fs::copy_file(f.work / "a.npy", f.work / "ro.npy");
  fs::permissions(f.work / "ro.npy", fs::perms::owner_read);
  mkfifo((f.work / "fifo").c_str(), 0600);
  fs::create_symlink(f.sentinel / "target", f.work / "link.npy");
}

std::string resolve(const Folders& f, const std::string& value) {
  return value.starts_with("@") ? (f.work / value.substr(1)).string() : value;
}

// The command line the input describes, from byte 0; `at` ends after its option bytes.
std::vector<std::string> command_line(const Folders& f, const uint8_t* data, size_t size, size_t& at) {
  const Verb& verb = verbs()[data[0] % verbs().size()];
  const size_t count = data[1] % 8;
  const bool leave_out_required = (data[1] & 0x80) != 0;
  std::vector<std::string> args{verb.name};
  std::set<std::string> given;
  at = 2;
  for (size_t i = 0; i < count && at + 1 < size; ++i, at += 2) {
    const Option& o = verb.options[data[at] % verb.options.size()];
    given.insert(o.name);
    if (*o.name) args.push_back(o.name);
    if (o.values) args.push_back(resolve(f, (*o.values)[data[at + 1] % o.values->size()]));
  }
  for (const Default& d : verb.required) {
    if ((leave_out_required && !d.always) || given.count(d.name)) continue;
    if (!d.name.empty()) args.push_back(d.name);
    args.push_back(resolve(f, d.value));
  }
  return args;
}

bool temporary_file_left(const fs::path& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().starts_with(".ozref-")) return true;
  return false;
}

void check_nothing_else_changed(const Folders& f) {
  if (names_in(f.base) != std::set<std::string>{"sentinel", "work"}) fail("something was written beside the work folder");
  if (names_in(f.sentinel) != std::set<std::string>{"target"} || content(f.sentinel / "target") != "sentinel" ||
      fs::symlink_status(f.sentinel / "target").type() != fs::file_type::regular)
    fail("the file outside the work folder changed");
  struct stat st {};
  if (stat("/dev/null", &st) != 0 || !S_ISCHR(st.st_mode)) fail("/dev/null is no longer a character device");
  if (ozref_names_in(f.cwd) != f.cwd_names) fail("the current folder changed");
  if (temporary_file_left(f.work)) fail("a temporary file was left behind");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const Folders& f = folders();
  size_t at = 0;
  const std::vector<std::string> args = command_line(f, data, size, at);
  make_files(f, data, size, at);
  const fuzz::CommandResult r = fuzz::ozref_command(args);
  const int code = r.code;
  std::string line;
  for (const std::string& a : args) line += " '" + a + "'";
  if (code != 0 && code != 1 && code != 2 && code != 77) fail("exit code " + std::to_string(code) + " for ozref" + line);
  const std::string& e = r.err;
  if (code == 2 && (!e.starts_with("ozref") || e.find(": error: ") == std::string::npos || e.find('\n') + 1 != e.size()))
    fail("exit code 2 without one 'ozref <verb>: error: ' line for ozref" + line + ": " + e);
  check_nothing_else_changed(f);
  return 0;
}
