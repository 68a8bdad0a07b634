// MMA-Sim's own outputs (tests/data/traces/mmasim: its models, not hardware) replayed through
// ozref's specs. Every record must agree with the base spec of its architecture, except in an
// explained class: a predicate over the record, computed here from the decoded operands (not
// from the models), where two readings of the hardware differ. Inside a class a record must
// agree with the spec named as MMA-Sim's reading; outside every class a base spec and all its
// variants must agree, so that the classes account for every difference between them.
#include <gmpxx.h>

#include <map>

#include "exact/rational_oracle.hpp"
#include "formats/decode.hpp"
#include "io/mma_trace.hpp"
#include "mma/execute.hpp"
#include "support.hpp"

using namespace ozref;

namespace {

mpq_class value(FormatId f, uint32_t bits) { return oracle::rational(decode(format_spec(f), bits)); }

// A product of two finite operands at least 2^128 in magnitude (beyond FP32's range).
bool product_beyond_fp32(const mma::InstructionSpec& s, const MmaRecord& r) {
  if (s.kind != mma::Kind::Float) return false;
  for (int k = 0; k < s.k; ++k) {
    const ExactValue a = decode(format_spec(s.a_format), mma::element_bits(s, r.a, k));
    const ExactValue b = decode(format_spec(s.b_format), mma::element_bits(s, r.b, k));
    if (!a.is_finite() || !b.is_finite() || !a.significand || !b.significand) continue;
    if (abs(oracle::rational(a) * oracle::rational(b)) >= mpq_class(mpz_class(1) << 128)) return true;
  }
  return false;
}

// An exact group of 16 whose products sum to zero while its two scales multiply to more than
// those of every group whose products do not: only then can the readings of a zero group's
// scale exponent (does it raise the alignment exponent?) give different results.
bool zero_group_with_largest_scale(const mma::InstructionSpec& s, const MmaRecord& r) {
  if (s.kind != mma::Kind::BlockScaled || !s.exact_group) return false;
  mpq_class largest_zero = -1, largest_nonzero = -1;
  for (int g = 0; g < s.k / s.exact_group; ++g) {
    mpq_class sum = 0;
    for (int k = g * s.exact_group; k < (g + 1) * s.exact_group; ++k)
      sum += value(s.a_format, mma::element_bits(s, r.a, k)) * value(s.b_format, mma::element_bits(s, r.b, k));
    const int block = g * s.exact_group / s.scale_block;
    const mpq_class scale = value(s.scale_format, r.scale_a[block]) * value(s.scale_format, r.scale_b[block]);
    mpq_class& largest = sum == 0 ? largest_zero : largest_nonzero;
    if (scale > largest) largest = scale;
  }
  return largest_zero > largest_nonzero;
}

struct ExplainedClass {
  const char* name;
  bool (*holds)(const mma::InstructionSpec&, const MmaRecord&);
  const char* mmasim_reading;  // the spec that follows MMA-Sim inside the class
  bool discriminates;          // some record of the class tells the family's specs apart
};

struct Source {
  const char* file;
  const char* arch;  // the base spec; its variants are replayed too
  std::vector<ExplainedClass> classes;
  uint64_t records;
};

struct ClassCount {
  uint64_t records = 0, agree = 0;
  std::map<std::string, uint64_t> differ;  // per other spec of the family: records it predicts otherwise
};

}  // namespace

TEST_CASE("mmasim replay: every record agrees with its spec or lies in an explained class", "[mma][mmasim]") {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data != nullptr);
  const char* zero_group = "an FP4 group of 16 summing to zero carries the largest scales";
  const Source sources[] = {
      {"mmasim.sm_80.jsonl.gz", "sm_80", {{"a bf16 product beyond FP32's range", product_beyond_fp32, "sm_80", false}}, 2000},
      {"mmasim.sm_89.jsonl.gz", "sm_89", {}, 2000},
      {"mmasim.sm_100.jsonl.gz", "sm_100", {{zero_group, zero_group_with_largest_scale, "sm_100", true}}, 7000},
      {"mmasim.sm_120.jsonl.gz", "sm_120", {{zero_group, zero_group_with_largest_scale, "sm_120", false}}, 6000},
  };
  test::CaseCount replayed("MMA-Sim records replayed");
  for (const Source& src : sources) {
    const std::vector<std::string> family = mma::arch_family(src.arch);
    uint64_t records = 0, agree_outside = 0;
    std::vector<ClassCount> counts(src.classes.size());
    read_mma_trace(std::string(data) + "/traces/mmasim/" + src.file, [&](const MmaRecord& r) {
      ++records;
      std::map<std::string, uint32_t> predicted;
      for (const std::string& name : family)
        predicted[name] = mma::execute(mma::instruction(mma::arch(name), r.op), {r.a, r.b, r.c, r.scale_a, r.scale_b});
      const mma::InstructionSpec& spec = mma::instruction(mma::arch(src.arch), r.op);
      INFO(src.file << ":" << r.line << " " << r.op << " d=" << to_hex32(r.d));
      for (size_t i = 0; i < src.classes.size(); ++i) {
        if (!src.classes[i].holds(spec, r)) continue;
        const std::string reading = src.classes[i].mmasim_reading;
        ClassCount& c = counts[i];
        ++c.records;
        c.agree += predicted[reading] == r.d;
        CHECK(predicted[reading] == r.d);
        for (const std::string& name : family)
          if (name != reading && predicted[name] != predicted[reading]) ++c.differ[name];
        return;
      }
      CHECK(predicted[src.arch] == r.d);
      agree_outside += predicted[src.arch] == r.d;
      for (const std::string& name : family) CHECK(predicted[name] == predicted[src.arch]);  // unexplained difference
    });
    replayed += records;
    CHECK(records == src.records);
    WARN(src.file << ": " << records << " records; " << agree_outside << " outside every class agree with " << src.arch
                  << (family.size() > 1 ? " and its variants" : ""));
    for (size_t i = 0; i < src.classes.size(); ++i) {
      std::string differ;
      for (const auto& [name, n] : counts[i].differ) differ += "; " + std::to_string(n) + " predicted otherwise by " + name;
      WARN("  class '" << src.classes[i].name << "': " << counts[i].records << " records, " << counts[i].agree
                       << " agree with " << src.classes[i].mmasim_reading << differ);
      CHECK(counts[i].records > 0);  // the class is exercised
      CHECK(counts[i].differ.empty() != src.classes[i].discriminates);
    }
  }
  replayed.report(17000);
}
