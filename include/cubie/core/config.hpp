#pragma once
// Host/device annotations shared by every policy, and the unroll hint for loops over
// compile-time sizes.
//
// Policies are written once and compiled twice: by nvcc into kernels and by the host
// compiler for the host backend. CUBIE_HD marks a function for both.

#if defined(__CUDACC__)
#define CUBIE_HD __host__ __device__ __forceinline__
#else
#define CUBIE_HD inline
#endif

// nvcc's device pass reads "unroll" and a plain host compiler its own spelling. nvcc's
// host pass accepts neither without a warning; host code there goes without the hint.
#if defined(__CUDA_ARCH__)
#define CUBIE_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define CUBIE_UNROLL
#elif defined(__clang__)
#define CUBIE_UNROLL _Pragma("clang loop unroll(full)")
#else
#define CUBIE_UNROLL _Pragma("GCC unroll 64")
#endif
