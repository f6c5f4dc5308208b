// Chapter 11's device code that no step asks the learner to write: the PTX wrappers of chapter
// 08 that the fused steps use (ldmatrix, mma.sync, cp.async), FP16 packing, the base-2
// exponential, the padded tile layout of step 2, the copy of a tile of rows into shared memory,
// and the per-warp state of the online softmax. Compiled by nvcc only (the .cu files include it;
// the host tests do not).
#pragma once

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

#include "attention.cuh"

namespace attention {

inline constexpr unsigned kFullMask = 0xffffffffu;

// The address of a shared-memory pointer as the 32-bit shared-window address PTX wants.
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// ldmatrix .x4: four 8x8 matrices of 16-bit values. Lane l gives the address of one 16-byte
// row: lanes 0-7 the rows of matrix 0, 8-15 of matrix 1, 16-23 of matrix 2, 24-31 of matrix 3.
// Lane l receives, in r[i], the two values at row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of
// matrix i. With .trans each matrix arrives transposed: row and column swap.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const __half* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const __half* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}

// The wrappers below that need compute capability 8.0 (mma.sync.m16n8k16, cp.async) compile to
// nothing for older targets; steps 2 and 3 refuse to run there (require_gpu_for_step).
// d += a b for one m16n8k16 tile: A 16x16 FP16 (row-major fragments a[0..3]), B 16x8 FP16
// (column-major fragments b0, b1), D 16x8 FP32. Fragment layouts: lane l = 4g + t holds
//   A: a[0] = row g, columns 2t, 2t+1; a[1] = row g+8, same columns; a[2], a[3]: columns + 8;
//   B: b0 = rows (k) 2t, 2t+1 of column (n) g; b1 = rows 2t+8, 2t+9;
//   D: d[0], d[1] = row g, columns 2t, 2t+1; d[2], d[3] = row g+8, same columns.
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4],
                                             std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// cp.async: 16 bytes from global to shared memory without passing through registers; with
// source_bytes = 0 the 16 bytes are zero-filled and nothing is read. Copies issued since the last
// commit form a group; wait_copies<N>() returns once at most N of this thread's groups are still
// in flight (it says nothing about other threads' copies: a barrier does).
__device__ __forceinline__ void copy_16_async(__half* destination, const __half* source,
                                              int source_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                   shared_address(destination)),
               "l"(source), "r"(source_bytes)
               : "memory");
#endif
}
__device__ __forceinline__ void commit_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Two floats rounded to FP16 and packed into one 32-bit register: `low` in bits 0-15 (the
// lower column of a fragment pair).
__device__ __forceinline__ std::uint32_t pack_halves(float low, float high) {
  const __half2 pair = __floats2half2_rn(low, high);
  return *reinterpret_cast<const std::uint32_t*>(&pair);
}

// 2^x with the multifunction unit's one-instruction approximation (relative error ~2^-22;
// exp2(-inf) = 0). The steps fold log2(e) into the score scale, so exp(x) never costs more.
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// Step 2's shared-memory tile of rows of D halves: each row padded by 8 halves (16 bytes), so
// that the 8 row addresses of one ldmatrix matrix (consecutive rows, same columns) start 4
// banks apart and fall in 8 different groups of 4 banks: no bank conflict.
template <int D>
struct PaddedRows {
  static constexpr int kRowElements = D + 8;
  __device__ static int offset(int row, int column) { return row * kRowElements + column; }
};

// Rows [first, first + kRows) of one (batch, head) of a [batch][tokens][heads][D] array into a
// shared tile laid out by Layout, 16 bytes per cp.async, by the block's kThreads threads; rows
// at or past `tokens` become zeros (their scores are masked; zeros keep them finite). Commits
// nothing. Each thread copies the same 16-byte column of every kThreads / (D / 8)-th row: its
// column, and its rows' place in the layout, are worked out once, not once per copy.
template <int D, int kRows, int kThreads, class Layout>
__device__ __forceinline__ void copy_rows_async(__half* tile, const __half* head, int first,
                                                int tokens, int row_stride) {
  constexpr int kPiecesPerRow = D / 8;
  constexpr int kRowsPerPass = kThreads / kPiecesPerRow;
  static_assert(kThreads % kPiecesPerRow == 0 && kRows % kRowsPerPass == 0,
                "every thread copies the same number of whole 16-byte pieces");
  const int my_row = threadIdx.x / kPiecesPerRow, column = (threadIdx.x % kPiecesPerRow) * 8;
#pragma unroll
  for (int pass = 0; pass < kRows / kRowsPerPass; ++pass) {
    const int row = my_row + pass * kRowsPerPass;
    const bool inside = first + row < tokens;
    const __half* source =
        head + static_cast<long long>(inside ? first + row : 0) * row_stride + column;
    copy_16_async(tile + Layout::offset(row, column), source, inside ? 16 : 0);
  }
}

// What the fused kernels get: the arrays, the shape, and the score scale in base 2
// (log2(e) / sqrt(head_dim)).
struct Arguments {
  const __half* q;
  const __half* k;
  const __half* v;
  __half* o;
  int tokens, heads;
  float scale_log2;
};
inline Arguments arguments_of(const __half* q, const __half* k, const __half* v, __half* o,
                              const Shape& shape) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(shape.head_dim)) / std::log(2.0);
  return {q, k, v, o, shape.tokens, shape.heads, static_cast<float>(scale)};
}

// A warp's part of the online softmax for its M tiles of 16 query rows. In the m16n8 layout a
// lane holds two rows of each tile, g and g + 8 (g = lane / 4): index [m][0] and [m][1].
//   o:   the unnormalized output, M x (D / 8) accumulator tiles of 16 x 8 (FP32);
//   max: the largest raw score (before the scale) seen so far in each of the lane's rows;
//   sum: this lane's share of each row's sum of exp2(scale_log2 (score - max)) over the keys
//        seen so far (the four lanes of a quad hold a row's columns between them).
template <int D, int M>
struct WarpRows {
  float o[M][D / 8][4];
  float max[M][2];
  float sum[M][2];
  __device__ WarpRows() {
#pragma unroll
    for (int m = 0; m < M; ++m) {
#pragma unroll
      for (int n = 0; n < D / 8; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) o[m][n][e] = 0.0f;
      }
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        max[m][r] = -INFINITY;
        sum[m][r] = 0.0f;
      }
    }
  }
};

// A warp's scores for one tile of N keys: M x (N / 8) accumulator tiles of 16 x 8. Steps 2 and
// 3 take kTileKeys keys at a time; step 4's wgmma gives each warp 16 rows of kStep4Keys.
template <int M, int N = kTileKeys>
using Scores = float[M][N / 8][4];

// Lets a kernel use `bytes` of dynamic shared memory (past the default 48 KiB). Cheap: the
// launchers call it before every launch, so that it holds on whichever GPU is current.
template <typename Kernel>
void allow_shared_memory(Kernel kernel, int bytes) {
  COURSE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

}  // namespace attention

// Steps 4 and 5's Hopper pieces (mbarriers, the TMA, wgmma): in every device file, so that
// step 4's device functions can be used ready-made like the others'.
#include "attention_hopper.cuh"
