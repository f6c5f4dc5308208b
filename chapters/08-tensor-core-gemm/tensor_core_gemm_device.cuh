// Device pieces of chapter 08, ready-made: the instructions that are not the lesson, each
// wrapped once and commented (read them when a step uses them).
//  - tile loads, global -> shared memory, 16 bytes (8 halves) per thread and copy, zeros where
//    the tile reaches past the matrix (steps 1-2);
//  - ldmatrix and mma.sync.m16n8k16 as inline PTX (steps 2-4);
//  - cp.async, 16 bytes, with its zero fill, commit and wait (step 3);
//  - the predicated store of two neighbouring results of C (steps 2-5);
//  - the block tile of steps 3-6 and the mma.sync fragments of steps 3 and 4.
// The Hopper pieces of steps 4-6 (TMA, mbarriers, wgmma) are in tensor_core_gemm_hopper.cuh,
// included at the end of this file; the store of all a warp's mma.sync accumulators, ready-made
// for steps 3 and 4, in tensor_core_gemm_accumulator_store.cuh (it is step 2's last TODO: open
// it after step 2).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

namespace tensor_core_gemm {

// The shared-memory address of a pointer into shared memory, as the PTX instructions below
// take it (a 32-bit offset in the shared window, not a generic 64-bit address).
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// Copies the ROWS x COLS tile of `source` (rows `ld` halves apart) whose top-left element is
// (row0, col0) into shared memory `tile`, rows TILE_LD halves apart, 8 halves (16 bytes) per
// copy: THREADS threads, each copying every THREADS-th 8-half piece. A piece whose row is not
// below `rows` or whose first column is not below `cols` is stored as zeros (the product then
// adds nothing for it); `cols` and `ld` are multiples of 8, so a piece is either wholly inside
// a row or wholly past its end.
template <int ROWS, int COLS, int TILE_LD, int THREADS>
__device__ __forceinline__ void load_tile(const __half* source, int ld, int row0, int col0,
                                          int rows, int cols, __half* tile) {
  constexpr int kPiecesPerRow = COLS / 8;
  static_assert(COLS % 8 == 0 && (ROWS * kPiecesPerRow) % THREADS == 0, "tile shape");
#pragma unroll
  for (int round = 0; round < ROWS * kPiecesPerRow / THREADS; ++round) {
    const int piece = threadIdx.x + round * THREADS;
    const int r = piece / kPiecesPerRow, c = (piece % kPiecesPerRow) * 8;
    uint4 value = make_uint4(0, 0, 0, 0);
    if (row0 + r < rows && col0 + c < cols) {
      value = *reinterpret_cast<const uint4*>(source + static_cast<long long>(row0 + r) * ld +
                                              col0 + c);
    }
    *reinterpret_cast<uint4*>(tile + r * TILE_LD + c) = value;
  }
}

// ldmatrix.sync.aligned.m8n8.x4.shared.b16: the warp loads four 8 x 8 matrices of 16-bit
// elements from shared memory. Lanes 0-7 give the addresses of matrix 0's eight rows (16
// contiguous bytes each, 16-byte aligned), lanes 8-15 matrix 1's, 16-23 matrix 2's, 24-31
// matrix 3's. Lane l receives in r[j] the two elements (row l / 4, columns 2 (l % 4) and
// 2 (l % 4) + 1) of matrix j: exactly the layout mma.sync wants for its A and C fragments.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const __half* row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row_address)));
}

// The same, transposed: lane l receives the elements (rows 2 (l % 4) and 2 (l % 4) + 1,
// column l / 4) of each matrix. B's tile is stored k-major (a row per k), but mma.sync wants
// each register of B to hold two neighbouring k of one column: .trans turns one into the other.
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4],
                                                  const __half* row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row_address)));
}

// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: d += a x b for a 16 x 16 tile of A and a
// 16 x 8 tile of B, FP16 products summed in FP32, by the whole warp. With g = lane / 4 and
// t = lane % 4 (each register of a and b holds two halves, the lower-numbered one in the low
// 16 bits):
//   a[0] = A(g, 2t..2t+1)    a[1] = A(g+8, 2t..2t+1)   a[2] = A(g, 2t+8..)   a[3] = A(g+8, 2t+8..)
//   b[0] = B(2t..2t+1, g)    b[1] = B(2t+8..2t+9, g)
//   d[0..1] = C(g, 2t..2t+1) d[2..3] = C(g+8, 2t..2t+1)
// Compute capability 8.0 and newer; elsewhere it is not compiled (the step does not run there).
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4],
                                             const std::uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// cp.async.cg.shared.global (compute capability 8.0 and newer): starts a copy of 16 bytes from
// global `source` to shared `destination` that goes around the registers and runs while the
// thread goes on. Only the first `source_bytes` (0 or 16 here) are read; the rest of the 16 are
// written as zeros, so a piece past the matrix becomes zeros without a read (give a valid
// address all the same, e.g. the matrix's start). The copy is not visible until waited for.
__device__ __forceinline__ void copy_16_bytes_async(__half* destination, const __half* source,
                                                    int source_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                   shared_address(destination)),
               "l"(source), "r"(source_bytes)
               : "memory");
#endif
}

// cp.async.commit_group: the copies this thread started since the last commit form one group.
__device__ __forceinline__ void commit_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// cp.async.wait_group PENDING: waits until at most PENDING of this thread's most recent groups
// are still in flight; the others have landed in shared memory. Only this thread's own copies:
// a __syncthreads() after it makes every thread's landed copies visible to the whole block.
template <int PENDING>
__device__ __forceinline__ void wait_for_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

// Stores C(row, col) = v0 and C(row, col + 1) = v1, each only inside the m x n matrix: the
// two results a thread holds side by side in every accumulator fragment of mma.sync and wgmma.
// One 8-byte store when both fit and C's address allows it.
__device__ __forceinline__ void store_result_pair(float* C, int m, int n, int row, int col,
                                                  float v0, float v1) {
  if (row >= m || col >= n) return;
  float* at = C + static_cast<long long>(row) * n + col;
  if (col + 1 < n && reinterpret_cast<std::uintptr_t>(at) % 8 == 0) {
    *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
  } else {
    at[0] = v0;
    if (col + 1 < n) at[1] = v1;
  }
}

// ---- The block tile of steps 3-6 ----------------------------------------------------------------
// A block computes BM x BN of C, in slices of BK along k. In steps 3 and 4, 8 warps of
// WARP_M x WARP_N each, every warp TILES_M x TILES_N mma.sync tiles of MMA_M x MMA_N (steps 1
// and 2 have smaller tiles of their own). A stage of shared memory holds one slice: A's BM x BK
// and B's BK x BN, B as BN / B_BOX_COLUMNS blocks of 64 columns side by side (each row of a block
// is 128 bytes: one bank line, and the widest row the TMA's 128-byte swizzle takes, step 4).
inline constexpr int BM = 128, BN = 256, BK = 64;
inline constexpr int WARP_M = 64, WARP_N = 64;
inline constexpr int MMA_M = 16, MMA_N = 8, MMA_K = 16;
inline constexpr int TILES_M = WARP_M / MMA_M, TILES_N = WARP_N / MMA_N;  // 4 x 8 per warp
inline constexpr int kTileWarps = (BM / WARP_M) * (BN / WARP_N);         // 8
inline constexpr int B_BOX_COLUMNS = 64;                                  // 128 bytes
inline constexpr int A_STAGE = BM * BK, B_STAGE = BK * BN;                // halves per stage

// A warp's mma.sync operands for one step of 16 along k: 4 tiles of A (16 x 16), 8 of B
// (16 x 8).
struct Fragments {
  std::uint32_t a[TILES_M][4];
  std::uint32_t b[TILES_N][2];
};

// acc += the warp's products of one step of 16 along k.
__device__ __forceinline__ void multiply_fragments(float (&acc)[TILES_M][TILES_N][4],
                                                   const Fragments& f) {
#pragma unroll
  for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (int j = 0; j < TILES_N; ++j) mma_m16n8k16(acc[i][j], f.a[i], f.b[j]);
  }
}

}  // namespace tensor_core_gemm

// After the pieces above, which it uses.
#include "tensor_core_gemm_hopper.cuh"  // IWYU pragma: export
