// Step 4: the copies handed to the Tensor Memory Accelerator (TMA), through a ring of stages that
// shared-memory barriers (mbarrier) hand back and forth. Compute capability 9.0 or newer (Hopper,
// Blackwell); the multiply is still step 3's mma.sync, from step 3's swizzled tiles.
// Changed from step 3:
//  - the copies: one thread asks the TMA for a whole box per instruction (A's 128 x 64 of a
//    slice, B's 64 x 256 as four boxes of 64 x 64: a 128-byte swizzle takes rows of at most 128
//    bytes), instead of 256 threads each issuing 12 cp.async of 16 bytes with their addresses and
//    bounds. The TMA writes each box already swizzled (step 3's pattern: the ldmatrix addresses
//    do not change), fills what lies past the matrix with zeros, and counts the bytes on the
//    stage's `full` barrier;
//  - the synchronisation: no __syncthreads in the loop. Each stage has two barriers: `full`
//    (the TMA has written it: the warps may read) and `empty` (every warp has loaded its
//    fragments from it: it may be refilled). A warp waits for the slice it needs, and only the
//    thread that issues the copies waits for the others to let go of a stage; a warp that runs
//    ahead no longer waits for the slowest of the eight at every slice.
// The barriers, the TMA's instructions and the ring's layout are in tensor_core_gemm_hopper.cuh.
// The fragments, their loads and the store of the accumulators are step 3's, ready-made.
#include <cuda.h>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_accumulator_store.cuh"
#include "tensor_core_gemm_device.cuh"
#include "tensor_core_gemm_ready_made.cuh"

namespace tensor_core_gemm::solution {

namespace {

using namespace hopper;  // the ring (Ring, kStages, kStageBytes, ...), mbarriers, TMA

constexpr int kThreads = kConsumerWarps * 32;  // 256: step 3's 8 warps

// Puts slice t of the tile of C whose top-left element is (block_row, block_col) into the
// ring: slice number `it` of all those the ring has taken since the kernel began (it is t in
// steps 4 and 5; in step 6 it counts over all the tiles of a block). One thread calls it.
[[maybe_unused]] __device__ __forceinline__ void produce_slice(
    const Ring& ring, const CUtensorMap* a_map, const CUtensorMap* b_map, int block_row,
    int block_col, int t, int it, const Watchdog& watchdog) {
  // BEGIN SOLUTION
  // TODO (step 4): once every consumer warp has given back the stage that ring slice `it`
  //       goes to, announce the bytes the stage will receive on its `full` barrier and ask the
  //       TMA for A's box and B's four boxes of slice t.
  const int s = it % kStages, lap = it / kStages;
  wait(&ring.empty[s], (lap & 1) ^ 1, s, watchdog);  // lap 0: a fresh barrier passes parity 1
  arrive_and_expect_bytes(&ring.full[s], kStageBytes);
  tma_load_2d(ring.a_stage(s), a_map, &ring.full[s], t * BK, block_row);
#pragma unroll
  for (int box = 0; box < BN / B_BOX_COLUMNS; ++box) {
    tma_load_2d(ring.b_stage(s) + box * BK * B_BOX_COLUMNS, b_map, &ring.full[s],
                block_col + box * B_BOX_COLUMNS, t * BK);
  }
  // END SOLUTION
}

// A consumer's wait for ring slice `it` (counted as in produce_slice): returns its stage once
// the TMA has written it.
[[maybe_unused]] __device__ __forceinline__ int wait_until_full(const Ring& ring, int it,
                                                                const Watchdog& watchdog) {
  int stage = 0;
  // BEGIN SOLUTION
  // TODO (step 4): which stage holds ring slice `it`, and which phase of its `full` barrier
  //       says that this lap's copies have landed?
  stage = it % kStages;
  wait(&ring.full[stage], (it / kStages) & 1, stage, watchdog);
  // END SOLUTION
  return stage;
}

// A consumer warp is done with stage `stage`: every lane has read from it what it needs (its
// fragments in registers, or wgmma finished). Every lane of the warp calls it.
[[maybe_unused]] __device__ __forceinline__ void give_back(const Ring& ring, int stage) {
  // BEGIN SOLUTION
  // TODO (step 4): one arrival of the warp on the stage's `empty` barrier (it counts warps),
  //       after the reads of every lane.
  __syncwarp();  // every lane's reads from the stage come before the arrive
  if (threadIdx.x % 32 == 0) arrive(&ring.empty[stage]);
  // END SOLUTION
}

__global__ void __launch_bounds__(kThreads, 1)
    tma_ring_kernel(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, float* C, int m, int k, int n,
                    Watchdog watchdog) {
#if defined(TENSOR_CORE_GEMM_TMA)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  const Ring ring = make_ring(shared_bytes, full, empty);
  __syncthreads();  // the barriers are initialised
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warp = threadIdx.x / 32;
  const int slices = course::ceil_div(k, BK);
  // Thread 0 issues the copies: the first kStages - 1 slices now, then, at the end of slice
  // t, slice t + kStages - 1 into the stage that slice t - 1 used, which every warp gave back a
  // slice ago (so the wait for it rarely waits), two slices before any warp needs it.
  const bool producer = threadIdx.x == 0;
  if (producer) {
    for (int t = 0; t < kStages - 1 && t < slices; ++t) {
      produce_slice(ring, &a_map, &b_map, block_row, block_col, t, t, watchdog);
    }
  }

  const int warp_row = (warp / (BN / WARP_N)) * WARP_M;
  const int warp_col = (warp % (BN / WARP_N)) * WARP_N;
  constexpr int STEPS = BK / MMA_K;  // k16 steps per slice
  float acc[TILES_M][TILES_N][4] = {};
  Fragments f[2];  // while the mma.sync of one k16 step run, the next step's are loaded
  int stage = wait_until_full(ring, 0, watchdog);
  ready_made::load_fragments(f[0], ring.a_stage(stage), ring.b_stage(stage), warp_row, warp_col,
                             0);
  for (int t = 0; t < slices; ++t) {
#pragma unroll
    for (int step = 0; step < STEPS; ++step) {
      if (step + 1 < STEPS) {
        ready_made::load_fragments(f[(step + 1) % 2], ring.a_stage(stage), ring.b_stage(stage),
                                   warp_row, warp_col, (step + 1) * MMA_K);
      } else {
        // Slice t's last fragments are in registers (this step multiplies them): its stage
        // goes back, and slice t + 1's first fragments come from the next.
        give_back(ring, stage);
        if (producer && t + kStages - 1 < slices) {
          produce_slice(ring, &a_map, &b_map, block_row, block_col, t + kStages - 1,
                        t + kStages - 1, watchdog);
        }
        if (t + 1 < slices) {
          stage = wait_until_full(ring, t + 1, watchdog);
          ready_made::load_fragments(f[0], ring.a_stage(stage), ring.b_stage(stage), warp_row,
                                     warp_col, 0);
        }
      }
      multiply_fragments(acc, f[step % 2]);
    }
  }

  store_accumulators(C, m, n, block_row + warp_row, block_col + warp_col, acc);
#endif
}

}  // namespace

void step4_tma_ring(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step4_tma_ring", A, B, C, m, k, n);
  require_gpu_for_step(4);
  const OperandMaps maps = make_operand_maps(A, B, m, k, n);
  COURSE_CHECK(cudaFuncSetAttribute(tma_ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    kRingSharedBytes));
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  tma_ring_kernel<<<grid, kThreads, kRingSharedBytes>>>(maps.a, maps.b, C, m, k, n,
                                                        arm_watchdog());
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step4_resources() {
  return resources_of(reinterpret_cast<const void*>(tma_ring_kernel));
}

}  // namespace tensor_core_gemm::solution
