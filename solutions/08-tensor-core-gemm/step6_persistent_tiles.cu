// Step 6: what it takes to pass cuBLAS: persistent blocks, a wgmma group kept in flight, and an
// epilogue that writes C in whole lines. Compute capability 9.0 with sm_90a code only, like
// step 5. The ring's producer and waits (step 4) and the wgmma of a slice (step 5) are
// ready-made. Changed from step 5, three things:
//  - persistent blocks: one block per SM (step6_blocks()), each taking tile after tile of C
//    (tile_origin below) instead of one block per tile. The producer then fills the ring with
//    the next tile's slices while the consumers still store the last one (only a block's first
//    tile starts with an empty ring), and the ring, its barriers and their parities simply go on
//    from tile to tile (one count `it` of slices for the whole block);
//  - one wgmma group in flight: after issuing slice t's wgmma, a consumer waits only for slice
//    t - 1's group (wgmma_wait<1>) and gives that stage back, so the tensor cores need not wait
//    for the issue of the next slice;
//  - the epilogue through shared memory: a warp's accumulators hold 2 columns of 8 rows per
//    store, 8 rows of 32 bytes each in step 5 (8 lines of C touched per instruction). Each warp
//    here puts 16 rows x 32 columns into its own staging tile in shared memory, reads them back
//    as rows, and stores 4 rows of 128 bytes per instruction (when rows of C start on 16 bytes;
//    otherwise one row of 32 floats per instruction).
// Tile order: consecutive tiles go down a group of kGroupRows tile rows before moving one tile
// to the right, so the blocks working at the same time share B's columns and A's rows.
#include <cuda.h>

#include <algorithm>
#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_hopper.cuh"
#include "tensor_core_gemm_ready_made.cuh"

namespace tensor_core_gemm::solution {

namespace {

using namespace hopper;  // the ring (Ring, kStages, kConsumers, ...), mbarriers, TMA, wgmma

[[maybe_unused]] constexpr int kGroupRows = 8;  // tile rows walked down together
// Each consumer warp's staging tile: 16 rows of 32 floats, rows 40 floats apart: a warp's 8-byte
// stores are served a half-warp (4 rows) at a time, and rows 8 banks apart put those 4 rows in
// different banks.
[[maybe_unused]] constexpr int STAGING_COLUMNS = 32, STAGING_LD = 40;
constexpr int kStagingBytes = kConsumers * 4 * 16 * STAGING_LD * 4;  // 20 KiB
constexpr int kSharedBytes = kRingSharedBytes + kStagingBytes;

// Where tile `tile` (0, 1, ... in the order the blocks take them) of a grid of tiles_m x
// tiles_n tiles of C starts: its first row and column. Tiles are walked in groups of
// `group_rows` tile rows (kGroupRows).
[[maybe_unused]] __device__ __forceinline__ void tile_origin(int tile, int tiles_m, int tiles_n,
                                                             int group_rows, int* block_row,
                                                             int* block_col) {
  int tile_row = tile / tiles_n, tile_col = tile % tiles_n;  // row by row
  // BEGIN SOLUTION
  // TODO: a better order for L2: consecutive tiles go down a group of group_rows tile rows
  //       (fewer in the last group, when tiles_m is not a multiple of group_rows) before
  //       moving one tile to the right; every tile still comes exactly once.
  const int tiles_per_group = group_rows * tiles_n;
  const int group = tile / tiles_per_group, in_group = tile % tiles_per_group;
  const int rows_in_group = min(group_rows, tiles_m - group * group_rows);
  tile_row = group * group_rows + in_group % rows_in_group;
  tile_col = in_group / rows_in_group;
  // END SOLUTION
  *block_row = tile_row * BM;
  *block_col = tile_col * BN;
}

__global__ void __launch_bounds__(kThreads, 1)
    persistent_tiles_kernel(const __grid_constant__ CUtensorMap a_map,
                            const __grid_constant__ CUtensorMap b_map, float* C, int m, int k,
                            int n, Watchdog watchdog) {
#if defined(TENSOR_CORE_GEMM_HOPPER)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  const Ring ring = make_ring(shared_bytes, full, empty);
  __syncthreads();  // the barriers are initialised
  const int warpgroup = threadIdx.x / 128;
  const int slices = course::ceil_div(k, BK);
  const int tiles_m = course::ceil_div(m, BM), tiles_n = course::ceil_div(n, BN);
  const int tiles = tiles_m * tiles_n;

  if (warpgroup == 0) {
    release_registers<40>();
    if (threadIdx.x != 0) return;
    // The producer: step 4's, over every slice of every tile this block takes. `it` counts the
    // slices of all of them: the ring's stage and lap go on across tiles.
    int it = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int block_row, block_col;
      tile_origin(tile, tiles_m, tiles_n, kGroupRows, &block_row, &block_col);
      for (int t = 0; t < slices; ++t, ++it) {
        ready_made::produce_slice(ring, &a_map, &b_map, block_row, block_col, t, it, watchdog);
      }
    }
    return;
  }

  claim_registers<232>();
  const int consumer = warpgroup - 1;
  const int warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
  float* staging = reinterpret_cast<float*>(ring.stages + kStages * kStageBytes) +
                   (consumer * 4 + warp) * 16 * STAGING_LD;
  // 4 floats may be stored at once when every row of C starts on 16 bytes.
  const bool rows_of_16_bytes = n % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;
  int it = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int block_row, block_col;
    tile_origin(tile, tiles_m, tiles_n, kGroupRows, &block_row, &block_col);
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;
    for (int t = 0; t < slices; ++t, ++it) {
      const int stage = ready_made::wait_until_full(ring, it, watchdog);
      ready_made::multiply_slice(d, ring, stage, consumer);  // committed as one group
      int finished_stage = stage;  // the stage given back to the producer below (-1: none)
      // BEGIN SOLUTION
      // TODO: leave this slice's wgmma running while the next slice's are issued: wait only
      //       until the previous slice's group has finished, and name the stage that the
      //       wgmma have finished reading (none at the tile's first slice: the stage before it
      //       went back at the end of the previous tile).
      wgmma_wait<1>();
      finished_stage = t > 0 ? (it - 1) % kStages : -1;
      // END SOLUTION
      if (finished_stage >= 0) ready_made::give_back(ring, finished_stage);
    }
    int held_stage = -1;  // a stage still held after the tile's last slice, given back below
    // BEGIN SOLUTION
    // TODO: after the tile's last slice: wait until every group has finished, and name the
    //       stage that is still held.
    wgmma_wait<0>();
    held_stage = (it - 1) % kStages;
    // END SOLUTION
    if (held_stage >= 0) ready_made::give_back(ring, held_stage);
    keep_in_registers(d);

    // The epilogue: d[4 j + e] of lane l (g = l / 4, q = l % 4) is C(16 warp + g + 8 (e / 2),
    // 8 j + 2 q + e % 2) of this warpgroup's 64 x 256 part (wgmma_m64n256k16's layout), 32
    // columns (4 values of j) at a time through the warp's staging tile.
    const int tile_row0 = block_row + consumer * CONSUMER_M + warp * 16;
#pragma unroll
    for (int chunk = 0; chunk < BN / STAGING_COLUMNS; ++chunk) {
      // BEGIN SOLUTION
      // TODO: put the chunk's 16 rows x 32 columns into `staging` (row r at r * STAGING_LD);
      //       then read it back by rows of C, inside C only: when rows_of_16_bytes, each
      //       instruction stores whole rows (8 lanes, 4 floats each, per row); otherwise each
      //       stores one row of 32 floats, one per lane. Every lane's values must be in
      //       `staging` before any lane reads them, and read before the next chunk overwrites.
      const int g = lane / 4, q = lane % 4;
#pragma unroll
      for (int jj = 0; jj < STAGING_COLUMNS / 8; ++jj) {
        const int j = chunk * (STAGING_COLUMNS / 8) + jj;
        *reinterpret_cast<float2*>(staging + g * STAGING_LD + jj * 8 + 2 * q) =
            make_float2(d[4 * j], d[4 * j + 1]);
        *reinterpret_cast<float2*>(staging + (g + 8) * STAGING_LD + jj * 8 + 2 * q) =
            make_float2(d[4 * j + 2], d[4 * j + 3]);
      }
      __syncwarp();
      const int chunk_col = block_col + chunk * STAGING_COLUMNS;
      if (rows_of_16_bytes) {
#pragma unroll
        for (int pass = 0; pass < 4; ++pass) {
          const int r = pass * 4 + lane / 8, c = (lane % 8) * 4;
          const float4 v = *reinterpret_cast<const float4*>(staging + r * STAGING_LD + c);
          const int row = tile_row0 + r, col = chunk_col + c;
          if (row >= m || col >= n) continue;  // n % 4 == 0: all 4 inside or all outside
          *reinterpret_cast<float4*>(C + static_cast<long long>(row) * n + col) = v;
        }
      } else {
#pragma unroll 4
        for (int r = 0; r < 16; ++r) {
          const int row = tile_row0 + r, col = chunk_col + lane;
          if (row < m && col < n) {
            C[static_cast<long long>(row) * n + col] = staging[r * STAGING_LD + lane];
          }
        }
      }
      __syncwarp();
      // END SOLUTION
    }
  }
#endif
}

}  // namespace

void step6_persistent_tiles(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step6_persistent_tiles", A, B, C, m, k, n);
  require_gpu_for_step(6);
  const OperandMaps maps = make_operand_maps(A, B, m, k, n);
  COURSE_CHECK(cudaFuncSetAttribute(persistent_tiles_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const int tiles = course::ceil_div(m, BM) * course::ceil_div(n, BN);
  const int blocks = std::min(tiles, step6_blocks());  // one per SM, or fewer tiles
  persistent_tiles_kernel<<<blocks, kThreads, kSharedBytes>>>(maps.a, maps.b, C, m, k, n,
                                                              arm_watchdog());
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step6_resources() {
  return resources_of(reinterpret_cast<const void*>(persistent_tiles_kernel));
}

}  // namespace tensor_core_gemm::solution
