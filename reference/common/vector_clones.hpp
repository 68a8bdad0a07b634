// OZREF_VECTOR_CLONES: for the loops that run over every element of a pipeline's matrices. The
// function is compiled twice, for x86-64-v4 (AVX-512, where the compiler vectorises it) and for the
// baseline, and the loader picks by CPU. Results are the same: only IEEE operations that round
// identically in scalar and vector form (no contraction: -ffp-contract=off) may appear in them.
#pragma once

#if defined(__x86_64__)
#define OZREF_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define OZREF_VECTOR_CLONES
#endif
