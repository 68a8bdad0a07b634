// fuzz_trace: `ozref verify-trace` on trace folders that a buggy or hostile kernel author wrote.
// Once per process, `ozref run --dump` writes a real 2x2x3 trace of each scheme configuration
// below, and each must verify (exit 0). Byte 0 of an input picks one; the copy in the work folder is
// then edited by the rest of the input, three bytes per edit: replace a manifest field (any node
// of the JSON, found through its flattened paths) with a value from a table of wrong types, huge
// numbers, escaping paths and wrong dtypes; set a byte of one of the folder's files; cut a file
// short; delete a file; replace a file by a symbolic link to the unedited trace's same file (a
// reader that followed it would find the file unchanged); plant reproducers/ as a link to a folder
// outside; or replace the whole manifest by the remaining bytes. Checks: the exit code is 0, 1 or 2
// (0 when nothing was edited, never 0 when a file was replaced by a link); exit 2 comes with one
// line "ozref verify-trace: error: ..."; nothing outside the work folder changes (nothing is
// written through the planted reproducers/) and no temporary file is left in it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/memory_budget.hpp"
#include "ozref_command.hpp"

namespace {

namespace fs = std::filesystem;

// ozref run options of each trace: every scheme, both CRTs of ozaki2, a complex run.
const std::vector<std::vector<std::string>> kConfigurations = {
    {"--scheme", "ozaki2-int8"},
    {"--scheme", "ozaki2-int8", "--mode", "fast", "--crt", "dd", "--moduli", "3"},
    {"--scheme", "ozaki2-int8", "--complex"},
    {"--scheme", "ozaki2-fp8"},
    {"--scheme", "ozaki2-fp4", "--arch", "sm_120"},
    {"--scheme", "ozaki1-int8", "--slices", "2"},
    {"--scheme", "int8-on-fp4", "--arch", "sm_100", "--dist", "integers:127"},
    {"--scheme", "rare"},
};

// Manifest values a careless writer produces: wrong JSON types, sizes past every limit, names that
// leave the folder or name no file, dtypes and shapes that do not match the arrays.
const std::vector<nlohmann::json> kValues = {
    nullptr, true, -1, 0, 1, 3, 4294967296.0, 1e308, "", "../outside.npy", "/etc/passwd", "a/../../x.npy", "missing.npy",
    "manifest.json", "f8", "f4", "i1", "i4", "u8", "c16", "<f8", "ozaki2-int8", "rare", "sm_90", "nosuch", "\xff\xfe",
    nlohmann::json::array(), nlohmann::json::object(), nlohmann::json::array({0}), nlohmann::json::array({1, 2}),
    nlohmann::json::array({2147483648.0, 2147483648.0}), nlohmann::json::array({-1, 2})};

struct Folders {
  fs::path base, traces, work, sentinel, cwd;
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_trace: %s\n", what.c_str());
  std::abort();
}

std::vector<std::string> verify_args(const fs::path& dir) {
  return {"verify-trace", dir.string(), "--threads", "1", "--json"};
}

const Folders& folders() {
  static const Folders f = [] {
    Folders f;
    std::string tmpl = (fs::temp_directory_path() / "ozref-fuzz-trace-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) fail("cannot create the work folder");
    f.base = tmpl, f.traces = f.base / "traces", f.work = f.base / "work", f.sentinel = f.base / "sentinel";
    fs::create_directories(f.sentinel);
    std::ofstream(f.sentinel / "target") << "sentinel";
    f.cwd = fs::current_path();
    for (size_t i = 0; i < kConfigurations.size(); ++i) {
      const fs::path dir = f.traces / std::to_string(i);
      std::vector<std::string> args{"run", "--m", "2", "--n", "2", "--k", "3", "--seed", "1", "--dump", dir.string()};
      args.insert(args.end(), kConfigurations[i].begin(), kConfigurations[i].end());
      if (const auto r = fuzz::ozref_command(args); r.code != 0)
        fail("ozref run --dump failed for configuration " + std::to_string(i) + ": " + r.err);
      if (const auto r = fuzz::ozref_command(verify_args(dir)); r.code != 0)
        fail("the unedited trace of configuration " + std::to_string(i) + " does not verify: " + r.err);
    }
    ozref::set_memory_budget(uint64_t{64} << 20);  // below libFuzzer's malloc limit
    return f;
  }();
  return f;
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && !e.is_symlink()) out.push_back(e.path());  // never edit through a planted link
  std::sort(out.begin(), out.end());
  return out;
}

void replace_manifest_field(const fs::path& manifest, uint8_t which, uint8_t value) {
  std::ifstream in(manifest);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return;  // an earlier edit already broke it
  nlohmann::json flat = j.flatten();
  if (flat.empty()) return;
  auto field = flat.begin();
  std::advance(field, which % flat.size());
  // Written through the pointer, not unflatten(): unflatten refuses non-primitive values.
  j[nlohmann::json::json_pointer(field.key())] = kValues[value % kValues.size()];
  std::ofstream(manifest, std::ios::trunc) << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void edit_byte(const fs::path& file, uint8_t offset, uint8_t value) {
  std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
  const std::streamoff size = static_cast<std::streamoff>(fs::file_size(file));
  if (size == 0) return;
  io.seekp(offset % size);
  io.put(static_cast<char>(value));
}

struct Edits {
  size_t count = 0;
  bool linked = false;  // a file of the trace replaced by a symbolic link
};

// Applies the edits the input describes to `dir`, a copy of `pristine`.
Edits apply_edits(const fs::path& dir, const fs::path& pristine, const fs::path& outside, const uint8_t* data, size_t size) {
  Edits edits;
  for (size_t at = 1; at + 2 < size; at += 3, ++edits.count) {
    const std::vector<fs::path> files = files_in(dir);
    if (files.empty()) break;
    const fs::path& file = files[data[at + 1] % files.size()];
    switch (data[at] % 7) {
      case 0:  // not through a manifest that case 5 replaced by a link into the pristine trace
        if (!fs::is_symlink(dir / "manifest.json")) replace_manifest_field(dir / "manifest.json", data[at + 1], data[at + 2]);
        break;
      case 1: edit_byte(file, data[at + 2], data[at] >> 3); break;
      case 2: fs::resize_file(file, fs::file_size(file) * data[at + 2] / 256); break;
      case 3: fs::remove(file); break;
      case 5:
        if (const fs::path same = pristine / fs::relative(file, dir); fs::exists(same)) {
          fs::remove(file);
          fs::create_symlink(same, file);
          edits.linked = true;
        }
        break;
      case 6:
        if (!fs::exists(fs::symlink_status(dir / "reproducers"))) fs::create_directory_symlink(outside, dir / "reproducers");
        break;
      default:
        fs::remove(dir / "manifest.json");  // a link is removed, not written through
        std::ofstream(dir / "manifest.json", std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(data + at + 1), static_cast<std::streamsize>(size - at - 1));
        ++edits.count;
        return edits;
    }
  }
  return edits;
}

void check_nothing_else_changed(const Folders& f) {
  std::ifstream in(f.sentinel / "target");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  if (text != "sentinel") fail("the file outside the work folder changed");
  for (const auto& e : fs::directory_iterator(f.base))
    if (e.path() != f.traces && e.path() != f.work && e.path() != f.sentinel) fail("something was written beside the work folder");
  for (const auto& e : fs::directory_iterator(f.sentinel))
    if (e.path().filename() != "target") fail("something was written into the folder outside: " + e.path().string());
  for (const auto& e : fs::recursive_directory_iterator(f.work))
    if (e.path().filename().string().starts_with(".ozref-")) fail("a temporary file was left behind: " + e.path().string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const Folders& f = folders();
  fs::remove_all(f.work);
  const fs::path pristine = f.traces / std::to_string(data[0] % kConfigurations.size());
  fs::copy(pristine, f.work, fs::copy_options::recursive);
  const Edits edits = apply_edits(f.work, pristine, f.sentinel, data, size);
  const fuzz::CommandResult r = fuzz::ozref_command(verify_args(f.work));
  const int code = r.code;
  const std::string& err = r.err;
  if (code != 0 && code != 1 && code != 2) fail("exit code " + std::to_string(code) + ": " + err);
  if (edits.count == 0 && code != 0) fail("an unedited trace did not verify: " + err);
  if (edits.linked && code == 0) fail("a trace with a file replaced by a symbolic link verified: the link was followed");
  if (code == 2 && (!err.starts_with("ozref verify-trace: error: ") || err.find('\n') + 1 != err.size()))
    fail("exit code 2 without one 'ozref verify-trace: error: ' line: " + err);
  check_nothing_else_changed(f);
  return 0;
}
