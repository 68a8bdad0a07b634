// Hostile and careless trace folders and outputs (issue 40): symbolic links planted inside a trace
// (an array, the manifest, reproducers/), a dump that fails or is killed part-way, two dumps into
// one folder at once, a read-only trace, an empty folder name, control characters in a manifest,
// --out naming an input, an option where a value belongs. Each is refused with exit code 2 and a
// message naming the file, or works as documented, and nothing outside the trace changes.
#include <csignal>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_support.hpp"
#include "common/printable_text.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "io/temp_file.hpp"
#include "support.hpp"
#include "trace_support.hpp"
#include "workspace.hpp"

using namespace ozref;
using test::run_ozref;
namespace fs = std::filesystem;

namespace {

test::CommandResult dump(const std::string& dir, int seed) {
  return run_ozref({"run", "--scheme", "ozaki2-int8", "--m", "4", "--n", "3", "--k", "40", "--seed", std::to_string(seed), "--threads", "1",
                    "--dump", dir});
}

// Every file of a folder (recursively) and its bytes.
std::map<std::string, std::string> contents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      out[fs::relative(e.path(), dir).string()] = std::string(std::istreambuf_iterator<char>(in), {});
    }
  return out;
}

void require_refusal(const test::CommandResult& r, const std::string& verb, const std::string& needle) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("ozref " + verb + ": error: "));
  CHECK(r.err.find(needle) != std::string::npos);
}

// A copy of the trace `from` in `to` whose GEMM output has one wrong element (manifest updated).
void wrong_gemm_copy(const std::string& from, const std::string& to) {
  fs::copy(from, to, fs::copy_options::recursive);
  NpyArray c = read_npy(to + "/gemm.c.npy");
  c.data[0] ^= 1;
  test::replace_trace_array(to, "gemm", "c", c);
}

// Runs `work` in a child process; its exit status (128 + signal when killed).
template <typename Work>
int in_child(Work work) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(work());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("hostile traces: a symbolic link inside a trace folder is refused, never followed", "[cli][trace]") {
  test::Workspace ws;
  const std::string trace = ws.path("t");
  REQUIRE(dump(trace, 1).code == 0);
  test::CaseCount cases("trace files replaced by links to identical copies outside");
  for (const std::string name : {"input.a.npy", "gemm.c.npy", "manifest.json"}) {
    // The link points at the file's own bytes: a reader that followed it would see a valid trace.
    const std::string linked = ws.path("linked-" + name), outside = ws.path("outside-" + name);
    fs::copy(trace, linked, fs::copy_options::recursive);
    fs::rename(linked + "/" + name, outside);
    fs::create_symlink(outside, linked + "/" + name);
    require_refusal(run_ozref({"verify-trace", linked, "--threads", "1"}), "verify-trace", linked + "/" + name + ": is a symbolic link");
    require_refusal(run_ozref({"diff", trace, linked}), "diff", linked + "/" + name + ": is a symbolic link");
    ++cases;
  }
  cases.report(3);
}

TEST_CASE("hostile traces: reproducers/ planted as a link is not written through, and the report stands", "[cli][trace]") {
  test::Workspace ws;
  REQUIRE(dump(ws.path("good"), 1).code == 0);
  for (const std::string planted : {"reproducers", "reproducers/gemm"}) {
    INFO(planted);
    const std::string trace = ws.path("wrong-" + std::to_string(planted.size())), outside = ws.path("outside-" + std::to_string(planted.size()));
    wrong_gemm_copy(ws.path("good"), trace);
    fs::create_directories(outside);
    fs::create_directories(fs::path(trace + "/" + planted).parent_path());
    fs::create_symlink(outside, trace + "/" + planted);
    const test::CommandResult r = run_ozref({"verify-trace", trace, "--threads", "1"});
    INFO(r.out << r.err);
    CHECK(r.code == 1);  // the kernel's defect, reported
    CHECK(r.out.find("gemm") != std::string::npos);
    CHECK(r.out.find("reproducer not written: " + trace + "/" + planted + ": is a symbolic link") != std::string::npos);
    CHECK(fs::is_empty(outside));
  }
}

TEST_CASE("hostile traces: a read-only trace with a wrong GEMM is reported, exit 1, with why no reproducer", "[cli][trace]") {
  test::Workspace ws;
  REQUIRE(dump(ws.path("good"), 1).code == 0);
  const std::string trace = ws.path("wrong");
  wrong_gemm_copy(ws.path("good"), trace);
  // The trace folder read-only, read by a user who cannot write it (root writes anyway). First,
  // before this process starts OpenMP's threads, which a forked child could not use.
  REQUIRE(::chmod(ws.dir.c_str(), 0755) == 0);
  REQUIRE(::chmod(trace.c_str(), 0555) == 0);
  const test::CommandResult ro = test::run_ozref_unprivileged({"verify-trace", trace, "--threads", "1"});
  INFO(ro.err);
  CHECK(ro.code == 1);
  CHECK(ro.err.empty());
  CHECK_FALSE(fs::exists(trace + "/reproducers"));
  REQUIRE(::chmod(trace.c_str(), 0755) == 0);
  // A reproducer folder that cannot be made (a file in its path): the report, and the reason.
  const std::string blocked = ws.file("a-file", "x") + "/reproducers";
  const test::CommandResult r = run_ozref({"verify-trace", trace, "--reproducers", blocked, "--threads", "1"});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find("reproducer not written: ") != std::string::npos);
  const test::CommandResult j = run_ozref({"verify-trace", trace, "--reproducers", blocked, "--json", "--threads", "1"});
  CHECK(j.code == 1);
  bool noted = false;
  const nlohmann::json report = nlohmann::json::parse(j.out);
  for (const auto& st : report["stages"]) noted = noted || st.contains("reproducer_error");
  CHECK(noted);
}

TEST_CASE("hostile traces: an empty folder name is refused, not read as the root", "[cli][trace]") {
  test::Workspace ws;
  REQUIRE(dump(ws.path("t"), 1).code == 0);
  require_refusal(run_ozref({"verify-trace", ""}), "verify-trace", "an empty name is refused");
  require_refusal(run_ozref({"diff", "", ws.path("t")}), "diff", "an empty name is refused");
  require_refusal(run_ozref({"diff", ws.path("t"), ""}), "diff", "an empty name is refused");
}

TEST_CASE("hostile traces: control characters from a manifest are escaped in every message", "[cli][trace]") {
  test::Workspace ws;
  const std::string trace = ws.path("t");
  REQUIRE(dump(trace, 1).code == 0);
  const std::string hostile = "\x1b]0;owned\x07\x1b[2J\r.npy";
  test::edit_manifest(trace, [&](nlohmann::json& m) { m["stages"][0]["arrays"][0]["file"] = hostile; });
  for (const test::CommandResult& r : {run_ozref({"verify-trace", trace, "--threads", "1"}), run_ozref({"diff", trace, trace})}) {
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find("\\x1b]0;owned\\x07\\x1b[2J\\x0d.npy") != std::string::npos);
    CHECK(r.err.find_first_of("\x1b\x07\r") == std::string::npos);
  }
  // The rule itself, against hand-made escapes: C0, DEL and C1 controls and bytes that are not
  // UTF-8 are escaped; other UTF-8 text is kept.
  CHECK(printable_text("a\tb\n") == "a\\x09b\\x0a");
  CHECK(printable_text("\x7f|\xc2\x9b|\xc2\xa0|\xff|\xe2\x82") == "\\x7f|\\u009b|\xc2\xa0|\\xff|\\xe2\\x82");
  CHECK(printable_text("\xc0\xaf") == "\\xc0\\xaf");  // an overlong '/'
  CHECK(printable_text("résumé ∑ 🙂") == "résumé ∑ 🙂");
}

TEST_CASE("hostile traces: a dump that fails part-way leaves the old trace whole and no stray folder", "[cli][trace]") {
  test::Workspace ws;
  const std::string trace = ws.path("t");
  REQUIRE(dump(trace, 1).code == 0);
  const auto before = contents(trace);
  // A file size limit lets the first arrays (about 1.4 KiB) be written and stops a later one.
  const int status = in_child([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1500, 1500};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    return dump(trace, 2).code;
  });
  CHECK(status == 2);
  CHECK(contents(trace) == before);
  CHECK(run_ozref({"verify-trace", trace, "--threads", "1"}).code == 0);
  CHECK(ws.names() == std::vector<std::string>{"t"});
  // Killed part-way: its new folder stays beside the trace until the next dump there.
  const int killed = in_child([&] {
    TraceWriter w(trace, nlohmann::json::object());
    w.add("input", "a", read_npy(trace + "/input.a.npy"));
    ::raise(SIGKILL);
    return 0;
  });
  CHECK(killed == 128 + SIGKILL);
  CHECK(contents(trace) == before);
  CHECK(ws.names().size() == 2);
  REQUIRE(dump(trace, 3).code == 0);
  CHECK(ws.names() == std::vector<std::string>{"t"});
  CHECK(test::read_json(trace + "/manifest.json")["seed"] == 3);
  CHECK(run_ozref({"verify-trace", trace, "--threads", "1"}).code == 0);
}

TEST_CASE("hostile traces: a dump replaces only a trace folder or an empty one", "[cli][trace]") {
  test::Workspace ws;
  const std::string mine = ws.path("mine");
  fs::create_directories(mine);
  const std::string note = ws.file("mine/notes.txt", "keep me");
  require_refusal(dump(mine, 1), "run", "holds files but no manifest.json");
  CHECK(ws.names() == std::vector<std::string>{"mine"});
  // A plain file as the target (fuzz_cli found this crashing): refused by name, the file kept.
  require_refusal(dump(note, 1), "run", "is a file, not a folder");
  std::ifstream kept(note);
  CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == "keep me");
  fs::create_directories(ws.path("empty"));
  CHECK(dump(ws.path("empty"), 1).code == 0);
  // A link as the target: the folder it points to gets the trace, the link stays.
  fs::create_symlink(ws.path("empty"), ws.path("link"));
  CHECK(dump(ws.path("link"), 2).code == 0);
  CHECK(fs::is_symlink(ws.path("link")));
  CHECK(test::read_json(ws.path("empty/manifest.json"))["seed"] == 2);
  CHECK(ws.names() == std::vector<std::string>{"empty", "link", "mine"});
}

TEST_CASE("hostile traces: two dumps into one folder at once leave one whole trace", "[cli][trace]") {
  test::Workspace ws;
  REQUIRE(dump(ws.path("ref-2"), 2).code == 0);
  REQUIRE(dump(ws.path("ref-3"), 3).code == 0);
  const auto ref2 = contents(ws.path("ref-2")), ref3 = contents(ws.path("ref-3"));
  const std::string trace = ws.path("t");
  test::CaseCount cases("concurrent dumps into one folder");
  for (uint64_t round = 0; round < 4 * test::level(); ++round) {
    pid_t pids[2];
    for (int i = 0; i < 2; ++i)
      if ((pids[i] = ::fork()) == 0) ::_exit(dump(trace, 2 + i).code);
    for (pid_t pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    const auto now = contents(trace);
    CHECK((now == ref2 || now == ref3));
    CHECK(ws.names() == std::vector<std::string>{"ref-2", "ref-3", "t"});
    ++cases;
  }
  cases.report(4);
}

TEST_CASE("hostile traces: --out naming an input (by another path or a hard link) is refused", "[cli]") {
  test::Workspace ws;
  write_npy(ws.path("a.npy"), npy_from_matrix(Matrix<double>(2, 3, 0.5)));
  write_npy(ws.path("b.npy"), npy_from_matrix(Matrix<double>(3, 2, 4.0)));
  const auto a_before = contents(ws.dir.string());
  REQUIRE(::link(ws.path("a.npy").c_str(), ws.path("hard.npy").c_str()) == 0);
  for (const std::string& out : {ws.path("a.npy"), ws.path("./b.npy"), ws.path("hard.npy")}) {
    require_refusal(run_ozref({"exact", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--out", out}), "exact", "is the input");
    require_refusal(run_ozref({"run", "--scheme", "ozaki2-int8", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--out", out}), "run",
                    "is the input");
  }
  auto after = contents(ws.dir.string());
  after.erase("hard.npy");
  CHECK(after == a_before);
  CHECK(run_ozref({"exact", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--out", ws.path("c.npy")}).code == 0);
}

TEST_CASE("hostile traces: an option where a value belongs is refused, not taken as a file name", "[cli]") {
  test::Workspace ws;
  write_npy(ws.path("a.npy"), npy_from_matrix(Matrix<double>(2, 3, 0.5)));
  write_npy(ws.path("b.npy"), npy_from_matrix(Matrix<double>(3, 2, 4.0)));
  const std::string a = ws.path("a.npy"), b = ws.path("b.npy");
  require_refusal(run_ozref({"exact", "--a", a, "--b", b, "--out", "--json"}), "exact", "--out: '--json' is an option, not a value");
  require_refusal(run_ozref({"run", "--scheme", "ozaki2-int8", "--dump", "--json"}), "run", "'--json' is an option");
  require_refusal(run_ozref({"verify-trace", ws.path("t"), "--reproducers", "--json"}), "verify-trace", "'--json' is an option");
  CHECK_FALSE(fs::exists("--json"));
  CHECK(run_ozref({"exact", "--a", a, "--b", b, "--out", ws.path("-c.npy")}).code == 0);  // one dash: a name
}

TEST_CASE("hostile traces: temporaries of a killed process are removed by the next write into their folder", "[io]") {
  test::Workspace ws;
  const int killed = in_child([&] {
    AtomicFile f(ws.path("c.npy"));
    f.write("half");
    ::raise(SIGKILL);
    return 0;
  });
  CHECK(killed == 128 + SIGKILL);
  REQUIRE(ws.names().size() == 1);
  CHECK(ws.names()[0].starts_with(".ozref-"));
  CHECK(ws.names()[0].ends_with(".tmp"));
  // One of a process that still runs (this one) is kept.
  const std::string live = ws.file(temp_file_name(0, "tmp"), "in use");
  write_file_atomically(ws.path("d.npy"), "whole");
  CHECK(ws.names() == std::vector<std::string>{fs::path(live).filename().string(), "d.npy"});
}
