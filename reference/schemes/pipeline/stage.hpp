// A stage of a scheme: one unit with a name, the schema of its arrays, a compute from its inputs to
// its outputs, and a verify of its mathematical contract from inputs and outputs. The CPU stages
// (reference/schemes/<scheme>/<stage>.cpp) implement it; a GPU twin or a kernel author's trace
// supplies the same outputs through a Subject (subject.hpp), and the runner (runner.hpp) checks
// them against the contract and, where the stage is a function of its inputs, bit for bit against
// the CPU compute.
//
// A batched stage (batches() > 1, the moduli of an Ozaki-II scheme) computes and verifies batch by
// batch; the runner interleaves consecutive batched stages (gemm then reduce for one modulus, then
// the next), so that an intermediate nothing else reads stays in cache, one batch at a time.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemes/pipeline/arrays.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::schemes {

enum class StageKind {
  Function,  // the outputs are determined by the inputs: a subject must match the CPU bit for bit
  Choice,    // a free choice (scale shifts): any output meeting the contract is valid
  Rounding,  // determined by the inputs up to an order of floating-point operations (a double-double
             // CRT): compared bit for bit with a subject that follows ozref's order (the GPU twins),
             // held to its contract otherwise (a kernel author's trace)
};

// The operands of one output element of a low-precision GEMM, as the instruction takes them: the
// element's row of A and column of B along K (K padded to the instruction's K), and the raw output.
struct GemmElement {
  std::string op;                 // the PTX instruction
  std::vector<uint8_t> a, b;      // operand encodings along K
  uint32_t c_in = 0;              // the accumulator the chain starts from
};

// The values of an integer output that the stages reading it are defined on, and their
// description for a message ("16..53", "values with an exact e2m1 encoding").
struct AdmittedValues {
  std::function<bool(int64_t)> holds;
  std::string what;
};

class Stage {
 public:
  virtual ~Stage() = default;
  virtual std::string_view name() const = 0;
  virtual StageKind kind() const { return StageKind::Function; }
  // Every array compute or verify reads (earlier stages' outputs, "input.*").
  virtual std::vector<ArrayRef> inputs() const = 0;
  // This stage's arrays, with their extents resolved for the run.
  virtual std::vector<ArraySpec> outputs() const = 0;
  virtual size_t batches() const { return 1; }
  // The lowest verification level at which verify checks something.
  virtual Verify checked_from() const { return Verify::Cheap; }
  // False where there is no contract of its own to check: an approximate computation (ozIMMU's
  // FP64 sums), or a choice checked by the stages that use it (scale shifts, at truncate).
  virtual bool has_contract() const { return true; }
  // Low-precision GEMMs issued per run (the report's low_precision_gemms).
  virtual size_t gemms() const { return 0; }
  // Writes every element of batch `batch` of each output (allocated by the runner).
  virtual void compute(const Arrays& in, Arrays& out, size_t batch) const = 0;
  // Checks the contract of batch `batch` of the outputs at `level` (>= checked_from()).
  virtual void verify(const Arrays& in, const Arrays& out, size_t batch, Verify level, StageReport& report) const = 0;
  // For a GEMM stage: the operands of element `flat` (C order) of output `array`, from the
  // stage's inputs and its outputs (a stage may multiply operands it made itself).
  virtual std::optional<GemmElement> gemm_element(const Arrays& /*in*/, const Arrays& /*out*/, std::string_view /*array*/,
                                                  size_t /*flat*/) const {
    return std::nullopt;
  }

  // The values output `array` may hold where the later stages are not defined on every value of
  // its dtype (a limb the instruction cannot encode, an exponent beyond the scheme's arithmetic):
  // verify-trace refuses a trace's array holding another one (exit 2). nullopt: every value.
  virtual std::optional<AdmittedValues> admitted(std::string_view /*array*/) const { return std::nullopt; }

  // The reference to one of this stage's outputs.
  ArrayRef ref(std::string_view array) const { return {name(), array}; }
};

// The base of one scheme's stage classes: the setup its stages share for one run (the resolved
// options, the moduli, the low-precision GEMM, the shape).
template <typename Setup>
class SchemeStage : public Stage {
 public:
  explicit SchemeStage(std::shared_ptr<const Setup> s) : s_(std::move(s)) {}
  // What the scheme's stages share (its GPU twins read it too).
  const Setup& setup() const { return *s_; }

 protected:
  std::shared_ptr<const Setup> s_;
};

// The members every stage class defines in its own file.
#define OZREF_STAGE_MEMBERS                                                                              \
 public:                                                                                                 \
  using SchemeStage::SchemeStage;                                                                        \
  std::vector<ArrayRef> inputs() const override;                                                         \
  std::vector<ArraySpec> outputs() const override;                                                       \
  void compute(const Arrays& in, Arrays& out, size_t batch) const override;                              \
  void verify(const Arrays& in, const Arrays& out, size_t batch, Verify level, StageReport& report) const override;

}  // namespace ozref::schemes
