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

// nvcc's device pass reads "unroll" and GCC its own spelling. nvcc's host pass accepts
// neither without a warning, and Clang warns (-Wpass-failed, an error under -Werror) at -O1
// and above for every hinted loop it leaves rolled: dense_lu's and cooperative_lu's inner
// loops start at an outer loop's index, a constant only where the outer loop unrolls too.
// Host code there goes without the hint: Clang's -O2 host solves were no slower without it
// (Lorenz with Tsit5, Pollution with Rodas5P and Kvaerno5; bench/RESULTS.md, 2026-11-27).
#if defined(__CUDA_ARCH__)
#define CUBIE_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__) || defined(__clang__)
#define CUBIE_UNROLL
#else
#define CUBIE_UNROLL _Pragma("GCC unroll 64")
#endif
