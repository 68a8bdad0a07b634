// The low-precision GEMMs of a scheme: matrices of small integers (slices, residues, limbs) encoded
// into the operand format of one instruction, multiplied through its MMA model the way a kernel
// issues it (K padded with zeros to the instruction's K), and read back as integers.
//   INT8  the integer itself (for a u8 operand of the instruction, the byte's unsigned value: the
//         int8_t holds its bit pattern);
//   E4M3  the integer as an FP8 value (|v| <= 16 and the other integers E4M3 holds exactly);
//   E2M1  half the integer as an FP4 value (the base-13 digits S = {0, +-1, +-2, +-3, +-4, +-6,
//         +-8, +-12} are exactly twice the E2M1 values), so the FP32 output is sum / 4.
// Whether the accumulator kept the sum exact is what the stages check: `integer_output` gives the
// exact integer an output stands for, or kNotInteger when it is not one.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mma/instruction.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::schemes {

enum class LowpFormat { Int8, E4M3, E2M1 };
std::string to_string(LowpFormat f);

// The instruction a scheme issues on an architecture: `op` when not empty (it must be modelled
// there and take the format), else the first one the architecture models from the preference
// list (INT8: mma.sync s8, tcgen05 kind::i8 s8; E4M3: mma.sync e4m3, mma.sync kind::f8f6f4, tcgen05
// kind::f8f6f4, wgmma; E2M1: mma.sync kind::f8f6f4, tcgen05 kind::f8f6f4). InputError naming the
// scheme, the architecture and what it would accept otherwise.
const mma::InstructionSpec& scheme_instruction(const std::string& arch, LowpFormat format, const std::string& op,
                                               const std::string& scheme);

// The INT8 instruction with the given operand signedness (mixed s8/u8 for the cuBLAS-style
// slicing of ozaki1-int8): mma.sync, else tcgen05 kind::i8; InputError when not modelled.
const mma::InstructionSpec& scheme_int8_instruction(const std::string& arch, bool a_signed, bool b_signed,
                                                    const std::string& scheme);

inline constexpr int64_t kNotInteger = INT64_MIN;

class LowpGemm {
 public:
  LowpGemm(const mma::InstructionSpec& spec, LowpFormat format);
  const mma::InstructionSpec& spec() const { return spec_; }
  LowpFormat format() const { return format_; }
  // Whether integer v has an exact encoding (v in [-128, 127]).
  bool representable(int v) const { return v >= -128 && v <= 127 && valid_[static_cast<size_t>(v + 128)]; }
  // A (m x k, row-major) times B (k x n), small integers held as int8_t or int16_t, into d (the
  // m x n raw outputs, INT32 or FP32 bit patterns, row-major). B is row-major, or with
  // `b_columns` stored column by column (n x k, the layout the instruction takes). K is padded
  // with zeros to the instruction's K. std::logic_error for a value without an exact encoding (a
  // scheme bug). The encoded operands live in buffers this object reuses: one LowpGemm runs one
  // GEMM at a time. threads <= 0: OpenMP's default.
  template <typename T>
  void run_into(size_t m, size_t n, size_t k, const T* a, const T* b, bool b_columns, int threads, std::span<uint32_t> d) const;
  // The same into a fresh vector, B row-major.
  std::vector<uint32_t> run(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b, int threads) const;
  // `k` values x[0], x[stride], ... encoded as the instruction's operand bytes, padded with zeros
  // to a multiple of its K (one output element's row of A or column of B).
  template <typename T>
  std::vector<uint8_t> encode_line(const T* x, size_t stride, size_t k) const;
  // The integer sum an output stands for (E2M1: 4x the FP32 value); kNotInteger otherwise.
  int64_t integer_output(uint32_t bits) const;
  // The value of an output in the same units (4x the FP32 value for E2M1), exact in a double;
  // NaN for NaN, +-infinity for infinity.
  double output_value(uint32_t bits) const;

 private:
  const mma::InstructionSpec& spec_;
  LowpFormat format_;
  std::array<uint8_t, 256> code_{};
  std::array<bool, 256> valid_{};
  mutable std::vector<uint8_t> encoded_a_, encoded_b_;
  // rows x k values, element (r, c) at x[r * row_stride + c * col_stride], encoded into rows of kp.
  template <typename T>
  void encode(const T* x, size_t rows, size_t k, size_t row_stride, size_t col_stride, size_t kp, int threads,
              std::vector<uint8_t>& out) const;
};

// The full check of one low-precision GEMM (operands as run_into takes them): each output equal
// to the exact integer product of its operands. Every mismatch is a violation of `report`, the
// first named as "<array>[<label>, i I, j J]" (e.g. "gemm.c[modulus 251, i 0, j 17]": the
// index convention of every stage's messages), the value the model gave and the exact one; a GEMM with
// mismatches adds the note "<label>: W of M elements not exact". Returns W. In a distributed
// run's block (`frame`) the elements are named as in the whole C and their violations keyed from
// `at` (its batch and check).
template <typename T>
size_t check_lowp_gemm(const LowpGemm& g, size_t m, size_t n, size_t k, const T* a, const T* b, bool b_columns,
                       std::span<const uint32_t> c, const std::string& array, const std::string& label, StageReport& report,
                       const BlockFrame& frame = {}, ViolationKey at = {});

}  // namespace ozref::schemes
