#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes {

std::optional<AdmittedValues> encodable(const LowpGemm& g) {
  if (g.format() == LowpFormat::Int8) return std::nullopt;
  return AdmittedValues{[&g](int64_t v) { return v >= -128 && v <= 127 && g.representable(static_cast<int>(v)); },
                        "values with an exact " + to_string(g.format()) + " encoding, which " + g.spec().op + " takes"};
}

}  // namespace ozref::schemes
