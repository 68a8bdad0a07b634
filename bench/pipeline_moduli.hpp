// The moduli of bench_gpu_pipeline's runs, from the scheme registry: the bench emulates
// `ozaki2-int8 --moduli N --mode fast` (with `--complex`, and `--complex-product gaussian` for the
// Gaussian runs) on an n x n by n x n product and takes the moduli that scheme resolves to
// (`resolved.moduli`), as `ozref run` and `ozref lockstep` do, never a list of its own. Host code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ozref::bench {

// InputError (naming --moduli and its range) for a count the scheme refuses.
std::vector<int64_t> pipeline_moduli(size_t n, size_t count, bool complex, bool gaussian);

}  // namespace ozref::bench
