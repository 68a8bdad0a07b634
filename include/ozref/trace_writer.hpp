// A kernel's intermediates written as a trace folder that `ozref verify-trace` reads
// (docs/verify-trace.md), each array checked against the scheme's schema when it is added
// (ozref schema): the manifest, with every array's dtype, shape and FNV-1a hash, is written by the
// library, last and atomically. Arrays are held until finish() writes the folder.
#pragma once
#include <memory>
#include <string>

#include "ozref/array.hpp"
#include "ozref/run.hpp"

namespace ozref::api {

class TraceWriter {
 public:
  // The trace of `scheme` with `options` for an m x k by k x n product (`complex`: a complex run);
  // InputError for an unknown scheme or options it refuses.
  TraceWriter(std::string dir, const std::string& scheme, size_t m, size_t n, size_t k, const SchemeOptions& options = {}, bool complex = false);
  ~TraceWriter();
  TraceWriter(TraceWriter&&) noexcept;
  TraceWriter& operator=(TraceWriter&&) noexcept;

  // Array `array` of stage `stage` ("input" for a and b). InputError naming the stage and array
  // for one the scheme lacks, one given twice, a dtype or shape not the schema's (the message gives
  // the expected dtype and shape), or a value the stages reading it are not defined on.
  void add(const std::string& stage, const std::string& array, const ArrayRef& data);
  // Writes the arrays and then manifest.json (atomically). InputError for a stage given without
  // all its arrays, or a folder that cannot be written; nothing is written then.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ozref::api
