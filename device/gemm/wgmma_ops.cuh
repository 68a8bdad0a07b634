// The wgmma instructions ozref's GEMM kernel issues (sm_90a): wgmma.mma_async.sync.aligned.m64n256k32
// with 8-bit operands from shared memory, one struct per instruction. Each holds its op string as
// the CPU model names it (N written as "N") and issues d = a b + d on a warpgroup's 64 x 256
// accumulators (128 registers a thread). Inline asm needs a literal per instruction, hence the
// macro; everything else about the kernel is shared.
#pragma once
#include <cstdint>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define OZREF_WGMMA_ENABLED 1
#endif

namespace ozref::device::wgmma {

#define OZREF_D8(c, i) c(d[i]), c(d[i + 1]), c(d[i + 2]), c(d[i + 3]), c(d[i + 4]), c(d[i + 5]), c(d[i + 6]), c(d[i + 7])
#define OZREF_D32(c, i) OZREF_D8(c, i), OZREF_D8(c, i + 8), OZREF_D8(c, i + 16), OZREF_D8(c, i + 24)
#define OZREF_D128(c) OZREF_D32(c, 0), OZREF_D32(c, 32), OZREF_D32(c, 64), OZREF_D32(c, 96)
#define OZREF_R8(a, b, c, d, e, f, g, h) "%" #a ", %" #b ", %" #c ", %" #d ", %" #e ", %" #f ", %" #g ", %" #h
#define OZREF_REGS                                                                                                                \
  OZREF_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " OZREF_R8(8, 9, 10, 11, 12, 13, 14, 15) ", " OZREF_R8(16, 17, 18, 19, 20, 21, 22, 23) ", "   \
  OZREF_R8(24, 25, 26, 27, 28, 29, 30, 31) ", " OZREF_R8(32, 33, 34, 35, 36, 37, 38, 39) ", " OZREF_R8(40, 41, 42, 43, 44, 45, 46, 47) \
  ", " OZREF_R8(48, 49, 50, 51, 52, 53, 54, 55) ", " OZREF_R8(56, 57, 58, 59, 60, 61, 62, 63) ", "                                  \
  OZREF_R8(64, 65, 66, 67, 68, 69, 70, 71) ", " OZREF_R8(72, 73, 74, 75, 76, 77, 78, 79) ", " OZREF_R8(80, 81, 82, 83, 84, 85, 86, 87) \
  ", " OZREF_R8(88, 89, 90, 91, 92, 93, 94, 95) ", " OZREF_R8(96, 97, 98, 99, 100, 101, 102, 103) ", "                              \
  OZREF_R8(104, 105, 106, 107, 108, 109, 110, 111) ", " OZREF_R8(112, 113, 114, 115, 116, 117, 118, 119) ", "                       \
  OZREF_R8(120, 121, 122, 123, 124, 125, 126, 127)

// The accumulators are 32-bit registers holding the INT32 or FP32 bit patterns (as .u32 operands:
// ptxas then keeps the FP32 forms pipelined too, which "f" registers at this count do not). The
// integer forms have no operand negation; the FP8 forms take the operands as they are (+1, +1).
// scale-d is 1: the accumulators start at zero.
#define OZREF_ACC(x) "+r"(x)
#ifdef OZREF_WGMMA_ENABLED
#define OZREF_WGMMA_OP(NAME, PTX, TAIL, OP_STRING)                                                                 \
  struct NAME {                                                                                                    \
    static constexpr const char* op = OP_STRING;                                                                   \
    __device__ static void mma(uint32_t (&d)[128], uint64_t da, uint64_t db) {                                     \
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" PTX " {" OZREF_REGS "}, %128, %129, p" TAIL ";\n}\n" \
                   : OZREF_D128(OZREF_ACC)                                                                         \
                   : "l"(da), "l"(db), "r"(1));                                                                    \
    }                                                                                                              \
  };
#else
#define OZREF_WGMMA_OP(NAME, PTX, TAIL, OP_STRING)                       \
  struct NAME {                                                          \
    static constexpr const char* op = OP_STRING;                         \
    __device__ static void mma(uint32_t (&)[128], uint64_t, uint64_t) {} \
  };
#endif

#define OZREF_WGMMA_INT(NAME, TYPES) \
  OZREF_WGMMA_OP(NAME, "wgmma.mma_async.sync.aligned.m64n256k32.s32." TYPES, "", "wgmma.mma_async.sync.aligned.m64nNk32.s32." TYPES)
#define OZREF_WGMMA_FP8(NAME, TYPES) \
  OZREF_WGMMA_OP(NAME, "wgmma.mma_async.sync.aligned.m64n256k32.f32." TYPES, ", 1, 1", "wgmma.mma_async.sync.aligned.m64nNk32.f32." TYPES)
OZREF_WGMMA_INT(S8S8, "s8.s8")
OZREF_WGMMA_INT(S8U8, "s8.u8")
OZREF_WGMMA_INT(U8S8, "u8.s8")
OZREF_WGMMA_INT(U8U8, "u8.u8")
OZREF_WGMMA_FP8(E4M3, "e4m3.e4m3")
OZREF_WGMMA_FP8(E5M2, "e5m2.e5m2")

#undef OZREF_WGMMA_FP8
#undef OZREF_WGMMA_INT
#undef OZREF_ACC

#undef OZREF_WGMMA_OP
#undef OZREF_REGS
#undef OZREF_R8
#undef OZREF_D128
#undef OZREF_D32
#undef OZREF_D8

}  // namespace ozref::device::wgmma
