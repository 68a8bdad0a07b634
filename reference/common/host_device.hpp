// Functions that both the CPU code and the GPU twins (device/) compile: __host__ __device__ under
// nvcc, plain inline functions elsewhere, so that one definition serves both sides.
#pragma once

#ifdef __CUDACC__
#define OZREF_HD __host__ __device__
// Inlined into the kernels, so that the wide integers passed by pointer stay in registers.
#define OZREF_HD_INLINE __host__ __device__ __forceinline__
#else
#define OZREF_HD
#define OZREF_HD_INLINE inline
#endif

// A loop unrolled fully in device code (its bounds constant), as written in host code.
#ifdef __CUDA_ARCH__
#define OZREF_UNROLL _Pragma("unroll")
#else
#define OZREF_UNROLL
#endif
