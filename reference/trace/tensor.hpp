// A stage array: its dtype, its shape as a trace writes it, and its bytes (C order, little-endian,
// left uninitialised until a stage writes them). ArraySpec is the schema of one array: its name,
// dtype and shape in terms of the scheme's dimensions (m, n, k, moduli, limbs, slices, ...).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/buffer.hpp"
#include "io/npy.hpp"

namespace ozref {

// One axis of an array: a symbol for the documentation ("N", "m", "2") and its extent. A squeezed
// axis is left out of the shape when its extent is 1 (the parts axis of a real run, the planes
// axis of a real Ozaki-II run), so real runs keep the plain shapes.
struct Axis {
  std::string symbol;
  size_t extent = 0;
  bool squeeze_if_one = false;
  // What messages call each index ("modulus 251", "re"); empty: the index letter and the index
  // (named_index, trace/compare.hpp).
  std::vector<std::string> labels = {};
};

struct ArraySpec {
  std::string name;
  DType dtype = DType::F8;
  std::vector<Axis> axes;
  // A batched stage's arrays: batch t holds rows batch_rows[t] .. batch_rows[t + 1] - 1 of the
  // leading axis. Empty: one leading row per batch (or the stage is not batched).
  std::vector<size_t> batch_rows;

  std::vector<Axis> shown_axes() const;  // the axes a trace writes: squeezed ones left out
  std::vector<size_t> shape() const;  // the extents, squeezed axes left out
  std::string symbolic() const;      // "N x m x k"
  size_t elements() const;
};

// The canary's byte of a dtype (Tensor::fill_canary), and whether an element (dtype_size bytes)
// still holds it.
uint8_t canary_byte(DType dtype);
bool is_canary(DType dtype, const uint8_t* element);

class Tensor {
 public:
  Tensor() = default;
  // Uninitialised storage for the whole array, or (resident_batches == 1 with batches) for one
  // batch at a time, reused: a batched stage's output that nothing after its batch reads.
  explicit Tensor(const ArraySpec& spec, bool one_batch_resident = false);
  Tensor(DType dtype, std::vector<size_t> shape);  // whole, uninitialised

  DType dtype() const { return dtype_; }
  const std::vector<size_t>& shape() const { return shape_; }
  size_t elements() const { return elements_; }
  size_t bytes() const { return elements_ * dtype_size(dtype_); }
  bool whole() const { return whole_; }

  // The elements as T (T's size must be the dtype's: bit patterns, e.g. uint32_t for i4 or f4).
  template <typename T>
  T* as() {
    check_element<T>();
    return reinterpret_cast<T*>(data_.data());
  }
  template <typename T>
  const T* as() const {
    check_element<T>();
    return reinterpret_cast<const T*>(data_.data());
  }
  // The first element of batch t (of a batched array) and the number of elements in it.
  template <typename T>
  T* batch(size_t t) {
    check_element<T>();
    return reinterpret_cast<T*>(data_.data()) + batch_offset(t);
  }
  template <typename T>
  const T* batch(size_t t) const {
    check_element<T>();
    return reinterpret_cast<const T*>(data_.data()) + batch_offset(t);
  }
  size_t batch_elements(size_t t) const;

  // A canary before a stage writes: NaN for floating-point arrays, 0xA5 bytes for integers, so
  // that an element left unwritten shows in the contract check or the comparison.
  void fill_canary();
  uint8_t* raw() { return data_.data(); }
  const uint8_t* raw() const { return data_.data(); }

  NpyArray to_npy() const;  // whole arrays only
  static Tensor from_npy(const NpyArray& a);

 private:
  template <typename T>
  void check_element() const {
    if (sizeof(T) != dtype_size(dtype_)) element_mismatch(sizeof(T));
  }
  [[noreturn]] void element_mismatch(size_t size) const;
  size_t batch_offset(size_t t) const;

  DType dtype_ = DType::F8;
  std::vector<size_t> shape_;
  size_t elements_ = 0;
  size_t row_elements_ = 0;        // elements per row of the leading axis
  std::vector<size_t> batch_rows_;  // as ArraySpec (filled in for uniform batches)
  bool whole_ = true;
  Buffer<uint8_t> data_;
};

}  // namespace ozref
