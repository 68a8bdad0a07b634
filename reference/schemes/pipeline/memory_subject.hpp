// A kernel's stage arrays held in memory as the subject of a scheme run (verify_stages): what a
// trace folder is to verify-trace (schemes/pipeline/trace_subject.hpp), without files. Each array is checked
// against the stage's schema and the values its readers admit when it is added; the stages it
// holds supply their arrays, the others are left to the CPU.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "io/npy.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/pipeline/subject.hpp"

namespace ozref::schemes {

class MemorySubject final : public Subject {
 public:
  explicit MemorySubject(const Scheme& scheme) : scheme_(scheme) {}
  // InputError naming the stage and array for one the scheme lacks, one given twice, a dtype or
  // shape not the schema's, or a value its readers are not defined on.
  void add(const std::string& stage, const std::string& array, NpyArray data);
  // InputError naming the first stage given without all its arrays.
  void require_whole_stages() const;
  // Every array added, in the scheme's order of stages ("input" first) and of their arrays.
  void visit(const std::function<void(const std::string& stage, const std::string& array, const NpyArray& data)>& f) const;

  std::string name() const override { return "arrays in memory"; }
  bool provides(const Stage& stage) const override { return stages_.count(std::string(stage.name())) != 0; }
  void compute(const Stage& stage, const Arrays& in, Arrays& out) override;

 private:
  const Scheme& scheme_;
  std::map<std::string, std::map<std::string, NpyArray>> stages_;
};

// InputError unless `data` is an array `stage`.`array` of the scheme may hold (what
// MemorySubject::add and the public TraceWriter check).
void require_stage_data(const Scheme& s, const std::string& stage, const std::string& array, const NpyArray& data);

}  // namespace ozref::schemes
