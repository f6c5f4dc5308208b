// Step 3: a multistage cp.async pipeline into XOR-swizzled shared tiles.
// Changed from step 2, three things:
//  - a bigger block: 128 x 256 of C with 8 warps of 64 x 64 (step 2: 128 x 128 with 4): each
//    value of A the block brings from global memory now feeds 256 columns instead of 128;
//  - a ring of kStages shared-memory stages of 64 along k, filled by cp.async (chapter 07's
//    step 5 had two): while the warps multiply slice t, slices t+1 .. t+kStages-1 are on their
//    way, so the tensor cores rarely wait for memory, and a barrier comes once per 64 of k.
//    kStages is 4 where a block may have 192 KiB of shared memory, fewer elsewhere
//    (step3_stages() in tensor_core_gemm.cuh): the kernel is compiled for 2, 3 and 4;
//  - swizzled tiles instead of step 2's padded rows: each 16-byte piece of a tile row is stored
//    at a position permuted (an XOR) by its row number, so that the eight rows that one
//    ldmatrix matrix reads still fall in eight different 16-byte bank groups (unswizzled and
//    unpadded, rows 128 or 512 bytes apart would all hit the same one: 8 passes instead of 1),
//    with no shared memory spent on padding. On rows of 128 bytes it is also the pattern that
//    step 4's hardware writes (TMA) and reads (wgmma). The same swizzle must be used to store
//    (cp.async) and to load (ldmatrix).
#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_accumulator_store.cuh"
#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm::solution {

namespace {

constexpr int BM = 128, BN = 256, BK = 64;
constexpr int WARP_M = 64, WARP_N = 64;
constexpr int MMA_M = 16, MMA_N = 8, MMA_K = 16;
constexpr int TILES_M = WARP_M / MMA_M, TILES_N = WARP_N / MMA_N;  // 4 x 8 per warp
constexpr int kThreads = (BM / WARP_M) * (BN / WARP_N) * 32;         // 256
constexpr int A_STAGE = BM * BK, B_STAGE = BK * BN;  // halves per stage
static_assert((A_STAGE + B_STAGE) * 2 == kStep3StageBytes, "48 KiB per stage");

// Where the 16-byte piece `piece` of a tile row `row` goes, in halves from the tile's start.
// A's rows are BK = 64 halves = 128 bytes (8 pieces): one 128-byte bank line each.
// B's rows are BN = 256 halves = 512 bytes (32 pieces): four bank lines each.
__device__ __forceinline__ int a_offset(int row, int piece) {
  int swizzled = piece;
  // BEGIN SOLUTION
  // TODO: XOR the piece number with bits of the row, so that the 8 consecutive rows that one
  //       ldmatrix matrix reads, at the same piece, land in 8 different 16-byte slots of the
  //       128-byte bank line (and the pieces of a row stay a permutation of 0..7).
  swizzled = piece ^ (row & 7);
  // END SOLUTION
  return row * BK + swizzled * 8;
}
__device__ __forceinline__ int b_offset(int row, int piece) {
  int swizzled = piece;
  // BEGIN SOLUTION
  // TODO: the same for B's rows of 32 pieces (keep each 8-piece bank line a permutation).
  swizzled = piece ^ (row & 7);
  // END SOLUTION
  return row * BN + swizzled * 8;
}

// Starts the copies of slice `slice` (A's 128 x 64 and B's 64 x 256 at column `slice` / row
// `slice`) into one stage; pieces outside the matrices become zeros (source_bytes 0).
__device__ __forceinline__ void start_slice(const __half* A, const __half* B, int m, int k, int n,
                                            int ldb, int block_row, int block_col, int slice,
                                            __half* a_stage, __half* b_stage) {
  constexpr int A_PIECES_PER_ROW = BK / 8, B_PIECES_PER_ROW = BN / 8;
#pragma unroll
  for (int round = 0; round < BM * A_PIECES_PER_ROW / kThreads; ++round) {
    const int p = threadIdx.x + round * kThreads;
    const int r = p / A_PIECES_PER_ROW, piece = p % A_PIECES_PER_ROW;
    const int row = block_row + r, col = slice + piece * 8;
    const bool inside = row < m && col < k;
    copy_16_bytes_async(a_stage + a_offset(r, piece),
                        inside ? A + static_cast<long long>(row) * k + col : A, inside ? 16 : 0);
  }
#pragma unroll
  for (int round = 0; round < BK * B_PIECES_PER_ROW / kThreads; ++round) {
    const int p = threadIdx.x + round * kThreads;
    const int r = p / B_PIECES_PER_ROW, piece = p % B_PIECES_PER_ROW;
    const int row = slice + r, col = block_col + piece * 8;
    const bool inside = row < k && col < n;
    copy_16_bytes_async(b_stage + b_offset(r, piece),
                        inside ? B + static_cast<long long>(row) * ldb + col : B, inside ? 16 : 0);
  }
}

template <int kStages>
__global__ void __launch_bounds__(kThreads)
    multistage_swizzle_kernel(const __half* A, const __half* B, float* C, int m, int k, int n,
                              int ldb) {
  extern __shared__ __align__(128) __half shared[];
  __half* a_stages = shared;                      // kStages x A_STAGE
  __half* b_stages = shared + kStages * A_STAGE;  // kStages x B_STAGE
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WARP_N)) * WARP_M;
  const int warp_col = (warp % (BN / WARP_N)) * WARP_N;
  const int slices = course::ceil_div(k, BK);
  float acc[TILES_M][TILES_N][4] = {};

  // BEGIN SOLUTION
  // TODO: the prologue: get the first slices on their way before the loop, so that the loop
  //       finds slice t's copies already started, with the same count of groups in flight
  //       for every k (the README's "cp.async groups").
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < slices) {
      start_slice(A, B, m, k, n, ldb, block_row, block_col, s * BK, a_stages + s * A_STAGE,
                  b_stages + s * B_STAGE);
    }
    commit_async_copies();
  }
  // END SOLUTION

  for (int t = 0; t < slices; ++t) {
    const int stage = t % kStages;
    // BEGIN SOLUTION
    // TODO: make slice t's stage ready for every warp to read, and keep the ring full: start
    //       the next slice due into the stage that slice t - 1 used (when is it free?).
    wait_for_async_copies<kStages - 2>();  // slice t's group has landed (this thread's copies)
    __syncthreads();                       // everyone's copies, and slice t - 1 read by all
    const int next = t + kStages - 1;
    if (next < slices) {
      const int next_stage = next % kStages;
      start_slice(A, B, m, k, n, ldb, block_row, block_col, next * BK,
                  a_stages + next_stage * A_STAGE, b_stages + next_stage * B_STAGE);
    }
    commit_async_copies();
    // END SOLUTION
    const __half* a_tile = a_stages + stage * A_STAGE;
    const __half* b_tile = b_stages + stage * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      std::uint32_t a[TILES_M][4], b[TILES_N][2];
#pragma unroll
      for (int i = 0; i < TILES_M; ++i) {
        // BEGIN SOLUTION
        // TODO: the lane's row address for ldmatrix, as in step 2, through the swizzle.
        const int row = warp_row + i * MMA_M + lane % 16, piece = kk / 8 + lane / 16;
        ldmatrix_x4(a[i], a_tile + a_offset(row, piece));
        // END SOLUTION
      }
#pragma unroll
      for (int j = 0; j < TILES_N; j += 2) {
        std::uint32_t r[4];
        // BEGIN SOLUTION
        // TODO: the same for B.
        const int row = kk + lane % 16, piece = (warp_col + j * MMA_N) / 8 + lane / 16;
        ldmatrix_x4_trans(r, b_tile + b_offset(row, piece));
        // END SOLUTION
        b[j][0] = r[0];
        b[j][1] = r[1];
        b[j + 1][0] = r[2];
        b[j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
        for (int j = 0; j < TILES_N; ++j) mma_m16n8k16(acc[i][j], a[i], b[j]);
      }
    }
  }
  wait_for_async_copies<0>();  // no copy may still be in flight when the block exits

  store_accumulators(C, m, n, block_row + warp_row, block_col + warp_col, acc);
}

using Kernel = void (*)(const __half*, const __half*, float*, int, int, int, int);

// The kernel with as deep a ring as `stages` (step3_stages(): what this GPU's shared memory
// holds).
Kernel kernel_with(int stages) {
  switch (stages) {
    case 4: return multistage_swizzle_kernel<4>;
    case 3: return multistage_swizzle_kernel<3>;
    default: return multistage_swizzle_kernel<2>;
  }
}

}  // namespace

void step3_multistage_swizzle(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step3_multistage_swizzle", A, B, C, m, k, n);
  require_gpu_for_step(3);
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  const int stages = step3_stages();
  const Kernel kernel = kernel_with(stages);
  const int shared_bytes = stages * kStep3StageBytes;  // dynamic shared memory
  // More than 48 KiB of shared memory per block must be asked for (once per process is enough,
  // but it is cheap).
  COURSE_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  kernel<<<grid, kThreads, shared_bytes>>>(A, b, C, m, k, n, ldb);
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step3_resources() {
  return resources_of(reinterpret_cast<const void*>(kernel_with(step3_stages())));
}

}  // namespace tensor_core_gemm::solution
