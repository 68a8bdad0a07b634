#include "schemes/pipeline/difference_pattern.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "schemes/common/crt_words.hpp"

namespace ozref::schemes {
namespace {

// The axes as the array's shape has them (squeezed ones left out), with a reader's name.
// "row 3 (m)", "modulus 251": index `at` of axis `a`, by its label where the axis has them.
std::string axis_index(const Axis& a, size_t at) {
  if (at < a.labels.size()) return a.labels[at];
  const std::string name = a.symbol == "m" ? "row" : a.symbol == "n" ? "column" : "index";
  return name + " " + std::to_string(at) + " (" + a.symbol + ")";
}

int64_t integer_at(DType t, const uint8_t* p) {
  switch (t) {
    case DType::I1: return *reinterpret_cast<const int8_t*>(p);
    case DType::U1: return *p;
    case DType::I2: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::U2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::I4: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case DType::U4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// The relation of found to expected for one element: "x 2^e", "-", "+ d"; nullopt for none.
std::optional<std::string> relation(DType t, const uint8_t* f, const uint8_t* e) {
  if (t == DType::F8) {
    double x, y;
    std::memcpy(&x, f, 8), std::memcpy(&y, e, 8);
    if (!std::isfinite(x) || !std::isfinite(y) || y == 0 || x == 0) return std::nullopt;
    if (x == -y) return "found = -expected";
    int exp = 0;
    if (std::frexp(x / y, &exp) != 0.5) return std::nullopt;
    return "found = expected x 2^" + std::to_string(exp - 1);
  }
  if (t == DType::F4 || t == DType::C16 || t == DType::U8) return std::nullopt;
  int64_t d = 0;
  if (__builtin_sub_overflow(integer_at(t, f), integer_at(t, e), &d) || d == INT64_MIN) return std::nullopt;
  return "found = expected " + std::string(d < 0 ? "- " : "+ ") + std::to_string(d < 0 ? -d : d);
}

}  // namespace

size_t integer_words(const ArraySpec& spec) {
  return spec.dtype == DType::I8 && !spec.axes.empty() && spec.axes.back().symbol == "W" ? spec.axes.back().extent : 1;
}

size_t differing_integers(const Tensor& found, const Tensor& expected, size_t words) {
  const size_t bytes = words * sizeof(int64_t);
  size_t count = 0;
  for (size_t v = 0; v + words <= found.elements(); v += words) count += std::memcmp(found.raw() + v * 8, expected.raw() + v * 8, bytes) != 0;
  return count;
}

std::string integer_values(const Tensor& found, const Tensor& expected, size_t first, size_t words) {
  const size_t start = first / words * words;
  return "found " + mpz_from_words(found.as<int64_t>() + start, words).get_str() + ", expected " +
         mpz_from_words(expected.as<int64_t>() + start, words).get_str();
}

std::string difference_pattern(const Tensor& found, const Tensor& expected, const ArraySpec& spec) {
  const size_t words = integer_words(spec);
  if (words > 1) {  // C' as integers: how many differ
    const size_t total = found.elements() / words, differing = differing_integers(found, expected, words);
    return (differing == total ? "every one of " : std::to_string(differing) + " of ") + std::to_string(total) + " integers";
  }
  const std::vector<Axis> axes = spec.shown_axes();
  const std::vector<size_t>& shape = found.shape();
  const size_t size = dtype_size(found.dtype()), total = found.elements();
  std::vector<size_t> shared(shape.size());
  std::vector<bool> one_index(shape.size(), true);
  std::optional<std::string> common;
  bool related = true;
  size_t differing = 0;
  for (size_t v = 0; v < total; ++v) {
    const uint8_t *f = found.raw() + v * size, *e = expected.raw() + v * size;
    if (std::memcmp(f, e, size) == 0) continue;
    for (size_t d = shape.size(), rest = v; d-- > 0; rest /= shape[d]) {
      const size_t index = rest % shape[d];
      if (differing == 0) shared[d] = index;
      else if (shared[d] != index) one_index[d] = false;
    }
    const std::optional<std::string> r = relation(found.dtype(), f, e);
    related = related && r && (differing == 0 || r == common);
    if (differing++ == 0) common = r;
  }
  std::string text = differing == total ? "every one of " + std::to_string(total) + " elements"
                                         : std::to_string(differing) + " of " + std::to_string(total) + " elements";
  for (size_t d = 0; d < shape.size() && d < axes.size(); ++d)
    if (one_index[d] && shape[d] > 1 && differing > 1) text += ", all in " + axis_index(axes[d], shared[d]);
  if (related && common) text += (differing > 1 ? ", each " : ", ") + *common;
  return text;
}

}  // namespace ozref::schemes
