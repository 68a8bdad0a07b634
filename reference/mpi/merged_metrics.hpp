// A distributed verb's accuracy figures: every rank measures its block of C (MetricSums), rank 0
// merges the sums and derives the figures once, the same bits as measure() on all of C.
#pragma once
#include "exact/metrics.hpp"

namespace ozref::mpi {

// Collective. On rank 0 the figures of every rank's sums merged; elsewhere those of its own.
AccuracyMetrics merged_metrics(MetricSums mine);

}  // namespace ozref::mpi
