#include "mpi/merged_metrics.hpp"

#include <cstring>
#include <type_traits>
#include <vector>

#include "mpi/mpi_world.hpp"

namespace ozref::mpi {

static_assert(std::is_trivially_copyable_v<MetricSums>, "ranks exchange MetricSums as bytes");

AccuracyMetrics merged_metrics(MetricSums mine) {
  const std::vector<char> all = gather_on_root(&mine, sizeof mine);
  for (size_t r = 1; r < all.size() / sizeof mine; ++r) {
    MetricSums other;
    std::memcpy(&other, all.data() + r * sizeof mine, sizeof mine);
    merge_sums(mine, other);
  }
  return finish_metrics(mine);
}

}  // namespace ozref::mpi
