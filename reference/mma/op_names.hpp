// The PTX names of the modelled instructions (and AMD's ISA names), spelled in one place. Architecture specs, scheme
// GEMMs, proofs, benchmarks and host-side probe tables build a name with these functions rather
// than writing the string; device asm keeps its literal, since inline asm needs one.
#pragma once

#include <string>
#include <string_view>

namespace ozref::mma::op_name {

// mma.sync.aligned.m16n8k32.row.col[.satfinite].s32.<a>.<b>.s32 (sm_80 onwards).
std::string mma_sync_int8(bool a_signed, bool b_signed, bool satfinite = false);
// mma.sync.aligned.m16n8k16.row.col.f32.<t>.<t>.f32, t = f16 or bf16.
std::string mma_sync_half(std::string_view type);
// mma.sync.aligned.m16n8k32.row.col.f32.<t>.<t>.f32, t = e4m3 or e5m2 (sm_89, sm_90).
std::string mma_sync_fp8(std::string_view type);
// mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.<t>.<t>.f32 (sm_120).
std::string mma_sync_f8f6f4(std::string_view type);
// mma.sync.aligned.<shape>.row.col.kind::<kind>.block_scale.scale_vec::<vec>.f32.<t>.<t>.f32.<scale> (sm_120).
std::string mma_sync_block_scaled(std::string_view shape, std::string_view kind, std::string_view scale_vec,
                                  std::string_view type, std::string_view scale_type);
// wgmma.mma_async.sync.aligned.m64nNk32.f32.<t>.<t> (sm_90; N stands for every legal N).
std::string wgmma_fp8(std::string_view type);
// wgmma.mma_async.sync.aligned.m64nNk32.s32.<a>.<b> (sm_90; wrapping INT32 accumulation).
std::string wgmma_int8(bool a_signed, bool b_signed);
// tcgen05 carries its operand types in the instruction descriptor; ozref appends them to the name:
// tcgen05.mma.cta_group::1.kind::<kind>[.<suffix>].
std::string tcgen05(std::string_view kind, std::string_view suffix = {});
// tcgen05.mma.cta_group::1.kind::f8f6f4.<t>.<t>
std::string tcgen05_f8f6f4(std::string_view type);
// tcgen05.mma.cta_group::1.kind::i8[.satfinite].<a>.<b>
std::string tcgen05_i8(bool a_signed, bool b_signed, bool satfinite = false);
// AMD CDNA3: v_mfma_f32_<shape>_<t>, t = f16 or bf16, shape "32x32x8", "16x16x4_4b", ...
std::string mfma(std::string_view shape, std::string_view type);

}  // namespace ozref::mma::op_name
