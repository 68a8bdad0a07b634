#include "schemes/common/lowp_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

#include "common/error.hpp"
#include "formats/decode.hpp"
#include "mma/gemm.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

std::string hex32(uint32_t bits) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", bits);
  return text;
}

FormatId element_format(LowpFormat f) { return f == LowpFormat::E2M1 ? FormatId::E2M1 : FormatId::E4M3; }

std::vector<std::string> int8_ops(bool a_signed, bool b_signed) {
  const std::string types = std::string(a_signed ? "s8" : "u8") + "." + (b_signed ? "s8" : "u8");
  return {"mma.sync.aligned.m16n8k32.row.col.s32." + types + ".s32", "tcgen05.mma.cta_group::1.kind::i8." + types};
}

std::vector<std::string> preferred_ops(LowpFormat f) {
  switch (f) {
    case LowpFormat::Int8:
      return int8_ops(true, true);
    case LowpFormat::E4M3:
      return {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
              "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32",
              "tcgen05.mma.cta_group::1.kind::f8f6f4.e4m3.e4m3", "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3"};
    case LowpFormat::E2M1:
      return {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32",
              "tcgen05.mma.cta_group::1.kind::f8f6f4.e2m1.e2m1"};
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
#pragma omp parallel for schedule(static) num_threads(threads) reduction(|| : bad)
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
                       std::span<const uint32_t> c, const std::string& label, StageReport& report) {
  size_t wrong = 0;
  // INT8 operands are read with the instruction's signedness (u8: the byte's unsigned value).
  const bool int8 = g.format() == LowpFormat::Int8;
  const bool ua = int8 && !g.spec().a_signed, ub = int8 && !g.spec().b_signed;
  auto value = [](T v, bool as_unsigned) { return as_unsigned ? int16_t(uint8_t(v)) : int16_t(v); };
  // A and B by columns as int16 with the signedness applied, then the exact sums in parallel (the
  // comparison after, in element order, for a deterministic report). |products| < 2^16, so int32
  // partial sums over 2^14 terms cannot overflow.
  std::vector<int16_t> at(m * k), bt(n * k);
  for (size_t v = 0; v < m * k; ++v) at[v] = value(a[v], ua);
  for (size_t j = 0; j < n; ++j)
    for (size_t kk = 0; kk < k; ++kk) bt[j * k + kk] = value(b_columns ? b[j * k + kk] : b[kk * n + j], ub);
  std::vector<int64_t> exact(m * n);
  constexpr size_t kChunk = size_t{1} << 14;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (size_t k0 = 0; k0 < k; k0 += kChunk) {
        int32_t partial = 0;
        for (size_t kk = k0; kk < std::min(k, k0 + kChunk); ++kk) partial += int32_t{at[i * k + kk]} * bt[j * k + kk];
        sum += partial;
      }
      exact[i * n + j] = sum;
    }
  for (size_t i = 0; i < m; ++i) {
    const int64_t* row = &exact[i * n];
    for (size_t j = 0; j < n; ++j) {
      const int64_t got = g.integer_output(c[i * n + j]);
      if (got == row[j]) continue;
      ++wrong;
      report.violate(label + " C" + index3(0, i, j) + " = " +
                     (got == kNotInteger ? "a non-integer (bits " + hex32(c[i * n + j]) + ")" : std::to_string(got)) +
                     ", exact " + std::to_string(row[j]));
    }
  }
  return wrong;
}

template size_t check_lowp_gemm(const LowpGemm&, size_t, size_t, size_t, const int8_t*, const int8_t*, bool,
                                std::span<const uint32_t>, const std::string&, StageReport&);
template size_t check_lowp_gemm(const LowpGemm&, size_t, size_t, size_t, const int16_t*, const int16_t*, bool,
                                std::span<const uint32_t>, const std::string&, StageReport&);

}  // namespace ozref::schemes
