#include "schemes/pipeline/array_window.hpp"

namespace ozref::schemes {

ArrayWindow window_of(const ArraySpec& spec, const BlockFrame& f) {
  ArrayWindow w;
  bool rows = false, cols = false;
  for (const Axis& axis : spec.axes) {
    if (axis.squeeze_if_one && axis.extent == 1) continue;
    size_t begin = 0, whole = axis.extent;
    if (axis.symbol == "m") begin = f.row0, whole = f.whole_m(axis.extent), rows = true;
    if (axis.symbol == "n") begin = f.col0, whole = f.whole_n(axis.extent), cols = true;
    w.box.push_back({begin, begin + axis.extent});
    w.whole_shape.push_back(whole);
  }
  w.speaks_for = (rows || f.checks_b) && (cols || f.checks_a);
  return w;
}

uint64_t ArrayWindow::whole_flat(size_t block_flat) const {
  uint64_t flat = 0, stride = 1;
  for (size_t d = box.size(); d-- > 0;) {
    const size_t extent = box[d].size();
    flat += (box[d].begin + block_flat % extent) * stride;
    block_flat /= extent;
    stride *= whole_shape[d];
  }
  return flat;
}

}  // namespace ozref::schemes
