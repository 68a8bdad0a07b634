#include "mma/op_names.hpp"

namespace ozref::mma::op_name {
namespace {

std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

std::string_view int8_type(bool is_signed) { return is_signed ? "s8" : "u8"; }
std::string_view saturation(bool satfinite) { return satfinite ? ".satfinite" : ""; }

}  // namespace

std::string mma_sync_int8(bool a_signed, bool b_signed, bool satfinite) {
  return cat({"mma.sync.aligned.m16n8k32.row.col", saturation(satfinite), ".s32.", int8_type(a_signed), ".",
              int8_type(b_signed), ".s32"});
}

std::string mma_sync_half(std::string_view t) { return cat({"mma.sync.aligned.m16n8k16.row.col.f32.", t, ".", t, ".f32"}); }

std::string mma_sync_fp8(std::string_view t) { return cat({"mma.sync.aligned.m16n8k32.row.col.f32.", t, ".", t, ".f32"}); }

std::string mma_sync_f8f6f4(std::string_view t) {
  return cat({"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.", t, ".", t, ".f32"});
}

std::string mma_sync_block_scaled(std::string_view shape, std::string_view kind, std::string_view scale_vec,
                                  std::string_view t, std::string_view scale_type) {
  return cat({"mma.sync.aligned.", shape, ".row.col.kind::", kind, ".block_scale.scale_vec::", scale_vec, ".f32.", t, ".",
              t, ".f32.", scale_type});
}

std::string wgmma_fp8(std::string_view t) { return cat({"wgmma.mma_async.sync.aligned.m64nNk32.f32.", t, ".", t}); }

std::string wgmma_int8(bool a_signed, bool b_signed) {
  return cat({"wgmma.mma_async.sync.aligned.m64nNk32.s32.", int8_type(a_signed), ".", int8_type(b_signed)});
}

std::string tcgen05(std::string_view kind, std::string_view suffix) {
  return cat({"tcgen05.mma.cta_group::1.kind::", kind, suffix.empty() ? "" : ".", suffix});
}

std::string tcgen05_f8f6f4(std::string_view t) { return tcgen05("f8f6f4", cat({t, ".", t})); }

std::string tcgen05_i8(bool a_signed, bool b_signed, bool satfinite) {
  return cat({"tcgen05.mma.cta_group::1.kind::i8", saturation(satfinite), ".", int8_type(a_signed), ".", int8_type(b_signed)});
}

std::string mfma(std::string_view shape, std::string_view type) {
  return "v_mfma_f32_" + std::string(shape) + "_" + std::string(type);
}

}  // namespace ozref::mma::op_name
