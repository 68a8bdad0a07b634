#include "schemes/common/lowp_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "exact/integer_gemm.hpp"
#include "formats/decode.hpp"
#include "mma/gemm.hpp"
#include "mma/op_names.hpp"

namespace ozref::schemes {
namespace {

FormatId element_format(LowpFormat f) { return f == LowpFormat::E2M1 ? FormatId::E2M1 : FormatId::E4M3; }

std::vector<std::string> int8_ops(bool a_signed, bool b_signed) {
  return {mma::op_name::mma_sync_int8(a_signed, b_signed), mma::op_name::tcgen05_i8(a_signed, b_signed)};
}

std::vector<std::string> preferred_ops(LowpFormat f) {
  switch (f) {
    case LowpFormat::Int8:
      return int8_ops(true, true);
    case LowpFormat::E4M3:
      return {mma::op_name::mma_sync_fp8("e4m3"), mma::op_name::mma_sync_f8f6f4("e4m3"), mma::op_name::tcgen05_f8f6f4("e4m3"),
              mma::op_name::wgmma_fp8("e4m3")};
    case LowpFormat::E2M1:
      return {mma::op_name::mma_sync_f8f6f4("e2m1"), mma::op_name::tcgen05_f8f6f4("e2m1")};
  }
  return {};
}

bool takes(const mma::InstructionSpec& s, LowpFormat f) {
  if (f == LowpFormat::Int8) return s.kind == mma::Kind::Integer && !s.saturate;  // s8 or u8 operands
  return s.kind == mma::Kind::Float && s.a_format == element_format(f) && s.b_format == element_format(f) &&
         (s.packing == mma::Packing::Byte || s.packing == mma::Packing::PaddedFp4);
}

// The first of `ops` the architecture models; InputError saying what was looked for otherwise.
const mma::InstructionSpec& first_modelled(const std::string& arch_name, const std::vector<std::string>& ops,
                                           const std::string& scheme, const std::string& what) {
  const mma::ArchSpec& a = mma::arch(arch_name);
  std::string tried;
  for (const std::string& name : ops) {
    for (const mma::InstructionSpec& s : a.instructions)
      if (s.op == name) return s;
    tried += (tried.empty() ? "" : ", ") + name;
  }
  throw InputError(scheme + ": architecture " + arch_name + " models no " + what + " (looked for: " + tried + ")");
}

}  // namespace

std::string to_string(LowpFormat f) {
  switch (f) {
    case LowpFormat::Int8: return "int8";
    case LowpFormat::E4M3: return "e4m3";
    case LowpFormat::E2M1: return "e2m1";
  }
  return "?";
}

const mma::InstructionSpec& scheme_instruction(const std::string& arch_name, LowpFormat format, const std::string& op,
                                               const std::string& scheme) {
  if (!op.empty()) {
    const mma::InstructionSpec& s = mma::instruction(mma::arch(arch_name), op);
    if (!takes(s, format))
      throw InputError(scheme + ": --op " + op + " does not multiply " + to_string(format) + " operands");
    return s;
  }
  return first_modelled(arch_name, preferred_ops(format), scheme, to_string(format) + " instruction the scheme can use");
}

LowpGemm::LowpGemm(const mma::InstructionSpec& spec, LowpFormat format) : spec_(spec), format_(format) {
  if (!takes(spec, format)) throw std::logic_error("LowpGemm: " + spec.op + " does not take " + to_string(format));
  if (format == LowpFormat::Int8) {
    for (int v = -128; v <= 127; ++v) {
      code_[static_cast<size_t>(v + 128)] = static_cast<uint8_t>(v);
      valid_[static_cast<size_t>(v + 128)] = true;
    }
    return;
  }
  // Every encoding's value; an integer v (E2M1: v / 2) it equals exactly gets that encoding
  // (positive zero for 0).
  const FormatSpec& f = format_spec(element_format(format));
  const int unit = format == LowpFormat::E2M1 ? 1 : 0;
  for (uint32_t bits = (1u << f.bits) - 1;; --bits) {
    const ExactValue x = decode(f, bits);
    const int e = x.exponent + unit;
    if (x.is_finite() && !(x.negative && x.significand == 0) && e > -64 && e < 8 &&
        (e >= 0 || (x.significand & ((uint64_t{1} << -e) - 1)) == 0)) {
      const int64_t mag = static_cast<int64_t>(e >= 0 ? x.significand << e : x.significand >> -e);
      const int64_t v = x.negative ? -mag : mag;
      if (v >= -128 && v <= 127) {
        code_[static_cast<size_t>(v + 128)] = static_cast<uint8_t>(spec.packing == mma::Packing::PaddedFp4 ? bits << 2 : bits);
        valid_[static_cast<size_t>(v + 128)] = true;
      }
    }
    if (bits == 0) break;
  }
}

template <typename T>
void LowpGemm::encode(const T* x, size_t rows, size_t k, size_t row_stride, size_t col_stride, size_t kp, int threads,
                      std::vector<uint8_t>& out) const {
  out.resize(rows * kp);
  constexpr size_t kBlock = 16;  // rows encoded together: a transposing read touches one line per column
  bool bad = false;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) reduction(|| : bad)
  for (size_t r0 = 0; r0 < rows; r0 += kBlock) {
    const size_t r1 = std::min(rows, r0 + kBlock);
    for (size_t c = 0; c < k; ++c)
      for (size_t r = r0; r < r1; ++r) {
        const unsigned index = static_cast<unsigned>(static_cast<int>(x[r * row_stride + c * col_stride]) + 128);
        bad = bad || index > 255 || !valid_[index & 255];
        out[r * kp + c] = code_[index & 255];
      }
    for (size_t r = r0; r < r1; ++r) std::fill(out.begin() + static_cast<long>(r * kp + k), out.begin() + static_cast<long>((r + 1) * kp), code_[128]);
  }
  if (bad) {
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < k; ++c)
        if (const int v = x[r * row_stride + c * col_stride]; !representable(v))
          throw std::logic_error("LowpGemm: " + std::to_string(v) + " has no exact " + to_string(format_) + " encoding");
  }
}

template <typename T>
void LowpGemm::run_into(size_t m, size_t n, size_t k, const T* a, const T* b, bool b_columns, int threads,
                        std::span<uint32_t> d) const {
  const size_t step = static_cast<size_t>(spec_.k), kp = (k + step - 1) / step * step;
  if constexpr (std::is_same_v<T, int8_t>) {
    if (format_ == LowpFormat::Int8 && kp == k && b_columns) {  // the bytes are the encodings already
      const std::span<const uint8_t> ea(reinterpret_cast<const uint8_t*>(a), m * k), eb(reinterpret_cast<const uint8_t*>(b), n * k);
      mma::gemm_into(spec_, {m, n, k, ea, eb, {}, {}, {}}, d, {.threads = threads});
      return;
    }
  }
  encode(a, m, k, k, 1, kp, threads, encoded_a_);
  if (b_columns) encode(b, n, k, k, 1, kp, threads, encoded_b_);
  else encode(b, n, k, 1, n, kp, threads, encoded_b_);
  mma::gemm_into(spec_, {m, n, kp, encoded_a_, encoded_b_, {}, {}, {}}, d, {.threads = threads});
}

template <typename T>
std::vector<uint8_t> LowpGemm::encode_line(const T* x, size_t stride, size_t k) const {
  const size_t step = static_cast<size_t>(spec_.k), kp = (k + step - 1) / step * step;
  std::vector<uint8_t> out;
  encode(x, 1, k, 0, stride, kp, 1, out);
  return out;
}

template std::vector<uint8_t> LowpGemm::encode_line(const int8_t*, size_t, size_t) const;
template std::vector<uint8_t> LowpGemm::encode_line(const int16_t*, size_t, size_t) const;

std::vector<uint32_t> LowpGemm::run(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b, int threads) const {
  std::vector<uint32_t> d(m * n);
  run_into(m, n, k, a, b, false, threads, std::span<uint32_t>(d));
  return d;
}

template void LowpGemm::run_into(size_t, size_t, size_t, const int8_t*, const int8_t*, bool, int, std::span<uint32_t>) const;
template void LowpGemm::run_into(size_t, size_t, size_t, const int16_t*, const int16_t*, bool, int, std::span<uint32_t>) const;

int64_t LowpGemm::integer_output(uint32_t bits) const {
  if (format_ == LowpFormat::Int8) return static_cast<int32_t>(bits);
  const ExactValue x = decode(format_spec(FormatId::FP32), bits);
  if (!x.is_finite()) return kNotInteger;
  const int e = x.exponent + (format_ == LowpFormat::E2M1 ? 2 : 0);
  uint64_t mag = x.significand;
  if (e < 0) {
    if (e <= -64 || (mag & ((uint64_t{1} << -e) - 1)) != 0) return mag == 0 ? 0 : kNotInteger;
    mag >>= -e;
  } else {
    if (e > 30) return kNotInteger;  // beyond any exact FP32 sum (< 2^24 units)
    mag <<= e;
  }
  return x.negative ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

double LowpGemm::output_value(uint32_t bits) const {
  if (format_ == LowpFormat::Int8) return static_cast<int32_t>(bits);
  const ExactValue x = decode(format_spec(FormatId::FP32), bits);
  if (x.cls == FloatClass::NaN) return std::nan("");
  if (x.cls == FloatClass::Infinity) return x.negative ? -HUGE_VAL : HUGE_VAL;
  const double mag = std::ldexp(static_cast<double>(x.significand), x.exponent + (format_ == LowpFormat::E2M1 ? 2 : 0));
  return x.negative ? -mag : mag;
}

const mma::InstructionSpec& scheme_int8_instruction(const std::string& arch_name, bool a_signed, bool b_signed,
                                                    const std::string& scheme) {
  return first_modelled(arch_name, int8_ops(a_signed, b_signed), scheme,
                        std::string("INT8 instruction with ") + (a_signed ? "s8" : "u8") + "." + (b_signed ? "s8" : "u8") + " operands");
}

template <typename T>
size_t check_lowp_gemm(const LowpGemm& g, size_t m, size_t n, size_t k, const T* a, const T* b, bool b_columns,
                       std::span<const uint32_t> c, const std::string& array, const std::string& label, StageReport& report,
                       const BlockFrame& frame, ViolationKey at) {
  // INT8 operands are read with the instruction's signedness (u8: the byte's unsigned value).
  const bool int8 = g.format() == LowpFormat::Int8;
  auto type = [&](bool is_signed) {
    if constexpr (std::is_same_v<T, int16_t>) return IntegerType::S16;
    return int8 && !is_signed ? IntegerType::U8 : IntegerType::S8;
  };
  std::vector<int64_t> exact(m * n);
  exact_integer_gemm(m, n, k, {a, type(g.spec().a_signed), k, 1},
                     {b, type(g.spec().b_signed), b_columns ? 1 : n, b_columns ? k : 1}, exact.data());
  size_t wrong = 0;
  for (size_t v = 0; v < m * n; ++v) {
    const int64_t got = g.integer_output(c[v]);
    if (got == exact[v]) continue;
    ++wrong;
    at.element = frame.c_element(0, v / n, v % n, m, n);
    // An INT8 sum past INT32 wraps: the depth K is beyond what one GEMM keeps exact.
    const bool wrapped = int8 && (exact[v] > INT32_MAX || exact[v] < INT32_MIN);
    report.violate(array + "[" + (label.empty() ? "" : label + ", ") + "i " + std::to_string(frame.row(v / n)) + ", j " + std::to_string(frame.col(v % n)) + "]: found " +
                       (got == kNotInteger ? "a non-integer (bits 0x" + to_hex32(c[v]) + ")" : std::to_string(got)) + ", expected " +
                       std::to_string(exact[v]) + ", the exact sum of its " + std::to_string(k) + " products" +
                       (wrapped ? ": past the INT32 range, so the accumulator wrapped (K beyond one GEMM's exactness bound)" : ": not exact"),
                   at);
  }
  if (wrong) report.note((label.empty() ? array : label) + ": " + std::to_string(wrong) + " of " + std::to_string(frame.whole_m(m) * frame.whole_n(n)) + " elements not exact",
                         {at.batch, at.check, 0});
  return wrong;
}

template size_t check_lowp_gemm(const LowpGemm&, size_t, size_t, size_t, const int8_t*, const int8_t*, bool,
                                std::span<const uint32_t>, const std::string&, const std::string&, StageReport&, const BlockFrame&,
                                ViolationKey);
template size_t check_lowp_gemm(const LowpGemm&, size_t, size_t, size_t, const int16_t*, const int16_t*, bool,
                                std::span<const uint32_t>, const std::string&, const std::string&, StageReport&, const BlockFrame&,
                                ViolationKey);

}  // namespace ozref::schemes
