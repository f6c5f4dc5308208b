// Step 2: mma.sync.m16n8k16 fed by ldmatrix: the fragments are now yours.
// Changed from step 1: the warp's tensor-core instruction is PTX's mma.sync, whose fragment
// layout is specified (tensor_core_gemm_device.cuh, mma_m16n8k16): which lane holds which
// element of a 16 x 16 tile of A, a 16 x 8 tile of B and a 16 x 8 tile of C. ldmatrix loads
// exactly that layout from shared memory: four 8 x 8 matrices per instruction, each lane giving
// the address of one row. One ldmatrix.x4 gives a whole A fragment; one ldmatrix.x4.trans two
// B fragments. Results stay in registers until the end and are stored by the lane that holds
// them, with no staging tile.
// The block is 128 x 128 with BK = 32 as in step 1, but with 4 warps of 64 x 64 each (4 x 8
// tiles of 16 x 8, 128 accumulators per lane): every fragment a warp loads feeds 8 (A) or 4 (B)
// mma instead of step 1's 2 and 4, and the warp has 32 independent mma per step of k.
// The shared rows are 8 halves (16 bytes) longer than the tile: the eight rows that one
// ldmatrix matrix reads then start in eight different 16-byte bank groups, and are read in one
// pass. Unpadded, the eight rows would share two bank groups, four rows in each, for A (rows of
// 64 bytes), and one for B (rows of 256 bytes): 4 and 8 passes.
#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm::solution {

namespace {

// A smaller block tile than steps 3-6's; the warps' 64 x 64 tiles of mma.sync tiles are theirs
// (WARP_M, TILES_M, ...: tensor_core_gemm_device.cuh).
constexpr int BM = 128, BN = 128, BK = 32;
constexpr int kThreads = (BM / WARP_M) * (BN / WARP_N) * 32;  // 128
constexpr int A_LD = BK + 8, B_LD = BN + 8;  // padded rows (16-byte aligned: ldmatrix needs it)

__global__ void __launch_bounds__(kThreads)
    mma_ldmatrix_kernel(const __half* A, const __half* B, float* C, int m, int k, int n,
                        int ldb, int first_tile_row, int first_tile_col) {
  __shared__ __align__(128) __half a_tile[BM * A_LD];
  __shared__ __align__(128) __half b_tile[BK * B_LD];
  const int block_row = (first_tile_row + blockIdx.y) * BM;
  const int block_col = (first_tile_col + blockIdx.x) * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WARP_N)) * WARP_M;
  const int warp_col = (warp % (BN / WARP_N)) * WARP_N;
  float acc[TILES_M][TILES_N][4] = {};

  for (int slice = 0; slice < k; slice += BK) {
    load_tile<BM, BK, A_LD, kThreads>(A, k, block_row, slice, m, k, a_tile);
    load_tile<BK, BN, B_LD, kThreads>(B, ldb, slice, block_col, k, n, b_tile);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      std::uint32_t a[TILES_M][4], b[TILES_N][2];
      // BEGIN SOLUTION
      // TODO: load this warp's A fragments (one ldmatrix_x4 per 16 rows) and B fragments (one
      //       ldmatrix_x4_trans per 16 columns gives two of them) for the 16 columns of A /
      //       rows of B at kk: each lane passes the address of the row it is responsible for.
#pragma unroll
      for (int i = 0; i < TILES_M; ++i) {
        // Lanes 0-15: rows 0-15 at column kk (matrices 0, 1); lanes 16-31: the same rows at
        // kk + 8 (matrices 2, 3). Registers 0-3 come out as mma's a[0..3].
        ldmatrix_x4(a[i], a_tile + (warp_row + i * MMA_M + lane % 16) * A_LD + kk + (lane / 16) * 8);
      }
#pragma unroll
      for (int j = 0; j < TILES_N; j += 2) {
        // Lanes 0-15: k rows kk..kk+15 at column j * 8; lanes 16-31: the same rows 8 columns on.
        std::uint32_t r[4];
        ldmatrix_x4_trans(r, b_tile + (kk + lane % 16) * B_LD + warp_col + j * MMA_N + (lane / 16) * 8);
        b[j][0] = r[0];
        b[j][1] = r[1];
        b[j + 1][0] = r[2];
        b[j + 1][1] = r[3];
      }
      // END SOLUTION
#pragma unroll
      for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
        for (int j = 0; j < TILES_N; ++j) mma_m16n8k16(acc[i][j], a[i], b[j]);
      }
    }
    __syncthreads();
  }

  // BEGIN SOLUTION
  // TODO: store every accumulator: which row and column of C does acc[i][j][e] hold in this lane?
  const int group = lane / 4, pair = (lane % 4) * 2;
#pragma unroll
  for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (int j = 0; j < TILES_N; ++j) {
      const int row = block_row + warp_row + i * MMA_M + group;
      const int col = block_col + warp_col + j * MMA_N + pair;
      store_result_pair(C, m, n, row, col, acc[i][j][0], acc[i][j][1]);
      store_result_pair(C, m, n, row + 8, col, acc[i][j][2], acc[i][j][3]);
    }
  }
  // END SOLUTION
}

}  // namespace

void step2_mma_ldmatrix(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step2_mma_ldmatrix", A, B, C, m, k, n);
  require_gpu_for_step(2);
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  // One grid of all the tiles (the tests also run each tile alone: tile_launches).
  const TileLaunches launches = tile_launches(course::ceil_div(m, BM), course::ceil_div(n, BN));
  for (int i = 0; i < launches.count(); ++i) {
    mma_ldmatrix_kernel<<<launches.grid(), kThreads>>>(A, b, C, m, k, n, ldb, launches.row(i),
                                                       launches.col(i));
    COURSE_CHECK(cudaGetLastError());
  }
}

KernelResources step2_resources() {
  return resources_of(reinterpret_cast<const void*>(mma_ldmatrix_kernel));
}

}  // namespace tensor_core_gemm::solution
