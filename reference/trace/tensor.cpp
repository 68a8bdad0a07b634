#include "trace/tensor.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ozref {

std::vector<Axis> ArraySpec::shown_axes() const {
  std::vector<Axis> out;
  for (const Axis& a : axes)
    if (!(a.squeeze_if_one && a.extent == 1)) out.push_back(a);
  return out;
}

std::vector<size_t> ArraySpec::shape() const {
  std::vector<size_t> s;
  for (const Axis& a : shown_axes()) s.push_back(a.extent);
  return s;
}

std::string ArraySpec::symbolic() const {
  std::string s;
  for (const Axis& a : shown_axes()) s += (s.empty() ? "" : " x ") + a.symbol;
  return s.empty() ? "1" : s;
}

size_t ArraySpec::elements() const {
  size_t e = 1;
  for (const Axis& a : axes) e *= a.extent;
  return e;
}

Tensor::Tensor(const ArraySpec& spec, bool one_batch_resident)
    : dtype_(spec.dtype), shape_(spec.shape()), elements_(spec.elements()), batch_rows_(spec.batch_rows) {
  const size_t rows = spec.axes.empty() ? 1 : spec.axes.front().extent;
  row_elements_ = rows ? elements_ / rows : 0;
  whole_ = !(one_batch_resident && batch_rows_.size() > 2);
  size_t resident = elements_;
  if (!whole_) {
    size_t widest = 0;
    for (size_t t = 0; t + 1 < batch_rows_.size(); ++t) widest = std::max(widest, batch_rows_[t + 1] - batch_rows_[t]);
    resident = widest * row_elements_;
  }
  data_.resize(resident * dtype_size(dtype_));
}

Tensor::Tensor(DType dtype, std::vector<size_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  elements_ = 1;
  for (size_t e : shape_) elements_ *= e;
  row_elements_ = shape_.empty() || shape_.front() == 0 ? elements_ : elements_ / shape_.front();
  data_.resize(elements_ * dtype_size(dtype_));
}

size_t Tensor::batch_offset(size_t t) const {
  if (batch_rows_.empty()) {
    if (t != 0) throw std::logic_error("Tensor: batch " + std::to_string(t) + " of an array that is not batched");
    return 0;
  }
  return whole_ ? batch_rows_.at(t) * row_elements_ : 0;
}

size_t Tensor::batch_elements(size_t t) const {
  if (batch_rows_.empty()) return elements_;
  return (batch_rows_.at(t + 1) - batch_rows_.at(t)) * row_elements_;
}

uint8_t canary_byte(DType dtype) { return dtype == DType::F8 || dtype == DType::F4 || dtype == DType::C16 ? 0xFF : 0xA5; }

bool is_canary(DType dtype, const uint8_t* element) {
  const uint8_t c = canary_byte(dtype);
  return std::all_of(element, element + dtype_size(dtype), [c](uint8_t byte) { return byte == c; });
}

void Tensor::fill_canary() { std::fill(data_.begin(), data_.end(), canary_byte(dtype_)); }

void Tensor::element_mismatch(size_t size) const {
  throw std::logic_error("Tensor: " + std::to_string(size) + "-byte elements requested from a " + std::string(dtype_name(dtype_)) +
                         " array");
}

NpyArray Tensor::to_npy() const {
  if (!whole_) throw std::logic_error("Tensor: a one-batch array cannot be written whole");
  NpyArray a;
  a.dtype = dtype_;
  a.shape = shape_;
  a.data.assign(data_.begin(), data_.end());
  return a;
}

Tensor Tensor::from_npy(const NpyArray& a) {
  Tensor t(a.dtype, a.shape);
  if (!a.data.empty()) std::memcpy(t.data_.data(), a.data.data(), a.data.size());
  return t;
}

}  // namespace ozref
