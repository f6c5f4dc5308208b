// Step 1: WMMA, the tensor cores through nvcuda::wmma.
// A tensor core multiplies small matrices in one instruction: here 16 x 16 of A by 16 x 16 of B,
// FP16 products added into FP32, a whole warp at a time. WMMA hands each warp a "fragment", an
// opaque share of such a 16 x 16 tile spread over the 32 lanes' registers: load_matrix_sync
// fills it from memory, mma_sync multiplies, store_matrix_sync writes it back. Which lane holds
// which element is not specified (it differs between GPU generations), so a fragment is only
// ever moved through those three calls.
// The block computes 128 x 128 of C with 8 warps (2 x 4), each warp 64 x 32 of it: 4 x 2
// accumulator fragments. For every slice of 32 along k the block stages A's 128 x 32 and B's
// 32 x 128 in shared memory (zeros past the matrices), then each warp loads its fragments from
// there: the shared tiles are read by 4 (A) or 2 (B) warps each.
#include <mma.h>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm::solution {

namespace {

using namespace nvcuda;

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int WARP_M = 64, WARP_N = 32;              // each warp's part of the block tile
constexpr int FRAG = 16;                              // WMMA's 16 x 16 x 16
constexpr int FRAGS_M = WARP_M / FRAG, FRAGS_N = WARP_N / FRAG;  // 4 x 2 per warp
constexpr int kWarps = (BM / WARP_M) * (BN / WARP_N);            // 8
constexpr int kThreads = kWarps * 32;
// Shared rows 16 halves (32 bytes) longer than the tile: consecutive rows then start in different
// banks, and every row starts on 32 bytes, which load_matrix_sync wants of a fragment's pointer
// (and ldm a multiple of 8 halves). 8 halves would also keep the fragments of this step on 32
// bytes, but only because they start 16 rows apart; 16 keeps any row's start there.
constexpr int A_LD = BK + 16, B_LD = BN + 16;

using AFragment = wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG, __half, wmma::row_major>;
using BFragment = wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG, __half, wmma::row_major>;
using Accumulator = wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG, float>;

// Writes one accumulator fragment to C at (row0, col0), only the elements inside m x n: the
// warp stores it to its 16 x 16 staging tile in shared memory (the only way to learn which lane
// holds which element), then each lane copies 8 of them.
__device__ void store_fragment(const Accumulator& acc, float* staging, float* C, int m, int n,
                               int row0, int col0) {
  wmma::store_matrix_sync(staging, acc, FRAG, wmma::mem_row_major);
  __syncwarp();
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < FRAG * FRAG / 32; ++i) {
    const int e = lane + i * 32, row = row0 + e / FRAG, col = col0 + e % FRAG;
    if (row < m && col < n) C[static_cast<long long>(row) * n + col] = staging[e];
  }
  __syncwarp();
}

__global__ void __launch_bounds__(kThreads)
    wmma_kernel(const __half* A, const __half* B, float* C, int m, int k, int n, int ldb) {
  __shared__ __align__(128) __half a_tile[BM * A_LD];
  __shared__ __align__(128) __half b_tile[BK * B_LD];
  __shared__ __align__(128) float staging[kWarps][FRAG * FRAG];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warp = threadIdx.x / 32;
  int warp_row = 0, warp_col = 0;  // where this warp's part starts, within the block tile
  // BEGIN SOLUTION
  // TODO: set warp_row and warp_col: which 64 x 32 part of the block's 128 x 128 does this warp
  //       own? (8 warps, 2 down and 4 across)
  warp_row = (warp / (BN / WARP_N)) * WARP_M;
  warp_col = (warp % (BN / WARP_N)) * WARP_N;
  // END SOLUTION

  Accumulator acc[FRAGS_M][FRAGS_N];
#pragma unroll
  for (int i = 0; i < FRAGS_M; ++i) {
#pragma unroll
    for (int j = 0; j < FRAGS_N; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  }

  for (int slice = 0; slice < k; slice += BK) {
    load_tile<BM, BK, A_LD, kThreads>(A, k, block_row, slice, m, k, a_tile);
    load_tile<BK, BN, B_LD, kThreads>(B, ldb, slice, block_col, k, n, b_tile);
    __syncthreads();
    // BEGIN SOLUTION
    // TODO: for each 16-wide step along the slice's 32 columns, load the fragments of A and of
    //       B that this warp's part needs from the shared tiles, and add every product of an A
    //       fragment with a B fragment into the accumulator it belongs to.
#pragma unroll
    for (int kk = 0; kk < BK; kk += FRAG) {
      AFragment a[FRAGS_M];
      BFragment b[FRAGS_N];
#pragma unroll
      for (int i = 0; i < FRAGS_M; ++i) {
        wmma::load_matrix_sync(a[i], a_tile + (warp_row + i * FRAG) * A_LD + kk, A_LD);
      }
#pragma unroll
      for (int j = 0; j < FRAGS_N; ++j) {
        wmma::load_matrix_sync(b[j], b_tile + kk * B_LD + warp_col + j * FRAG, B_LD);
      }
#pragma unroll
      for (int i = 0; i < FRAGS_M; ++i) {
#pragma unroll
        for (int j = 0; j < FRAGS_N; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
      }
    }
    // END SOLUTION
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < FRAGS_M; ++i) {
#pragma unroll
    for (int j = 0; j < FRAGS_N; ++j) {
      store_fragment(acc[i][j], staging[warp], C, m, n, block_row + warp_row + i * FRAG,
                     block_col + warp_col + j * FRAG);
    }
  }
}

}  // namespace

void step1_wmma(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step1_wmma", A, B, C, m, k, n);
  require_gpu_for_step(1);
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  wmma_kernel<<<grid, kThreads>>>(A, b, C, m, k, n, ldb);
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step1_resources() { return resources_of(reinterpret_cast<const void*>(wmma_kernel)); }

}  // namespace tensor_core_gemm::solution
