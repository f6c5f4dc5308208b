// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 08.4
// (or: meson test -C build --suite 08-tensor-core-gemm:exercise --print-errorlogs)
// (generated from solutions/08-tensor-core-gemm/ by python3 -m tools.sync_exercises)
// Step 4: Hopper's own path to the tensor cores: TMA, mbarriers and wgmma, with warpgroups in
// two roles. Compute capability 9.0 with sm_90a code only (see tensor_core_gemm_hopper.cuh).
// Changed from step 3:
//  - the copies: one thread asks the Tensor Memory Accelerator for a whole tile (a "box") per
//    instruction, instead of every thread issuing 16-byte cp.async. The TMA writes the tile
//    already swizzled (128-byte swizzle), fills what lies past the matrix with zeros, and
//    counts the bytes on an mbarrier of the stage;
//  - the multiply: wgmma, one instruction per warpgroup (4 warps) for a 64 x 256 x 16 product,
//    reads A and B straight from shared memory (no ldmatrix, no fragments in registers) and
//    runs asynchronously: fence, issue, commit, and wait before the results or the stage are
//    touched;
//  - the roles: warpgroup 0 is the producer (one of its threads issues the TMA copies, the rest
//    give their registers away), warpgroups 1 and 2 are consumers, each 64 rows of the block's
//    128 x 256 tile. A ring of kStages stages with two barriers each: `full` (the TMA has
//    written it: the consumers may read) and `empty` (both consumers are done: the producer may
//    refill it). No __syncthreads in the loop: each side waits for exactly what it needs.
#include <cuda.h>

#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_hopper.cuh"

namespace tensor_core_gemm::exercise {

namespace {

using namespace hopper;  // and its tiles: BM, BN, BK, kStages, kConsumers, kStageBytes, ...

constexpr int kSharedBytes = kStages * kStageBytes + 1024;  // + room to align to 1024 bytes

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map,
                     const __grid_constant__ CUtensorMap b_map, float* C, int m, int k, int n,
                     Watchdog watchdog) {
#if defined(TENSOR_CORE_GEMM_HOPPER)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  // 128-byte-swizzled tiles start on 1024 bytes (the swizzle repeats every 8 rows of 128).
  unsigned char* stages = shared_bytes + (1024 - shared_address(shared_bytes) % 1024) % 1024;
  const auto a_stage = [stages](int s) { return reinterpret_cast<__half*>(stages + s * kStageBytes); };
  const auto b_stage = [stages](int s) {
    return reinterpret_cast<__half*>(stages + s * kStageBytes + A_STAGE_BYTES);
  };
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warpgroup = threadIdx.x / 128;
  const int slices = course::ceil_div(k, BK);

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      barrier_init(&full[s], 1);                   // the producer's arrive (plus the bytes)
      barrier_init(&empty[s], kConsumers * 4);     // one arrive per consumer warp
    }
    fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    release_registers<40>();
    if (threadIdx.x != 0) return;
    // TODO: the producer: for every slice t of BK along k, take the ring's next stage once both
    //       consumers have released it, announce the stage's bytes on its `full` barrier, and
    //       ask the TMA for A's box (BM x BK) and B's four boxes (BK x 64) of slice t.
    return;
  }

  claim_registers<232>();
  const int consumer = warpgroup - 1;
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  // TODO: the consumer: for every slice t, wait until its stage is full, multiply this
  //       warpgroup's 64 rows of A's tile by B's tile in BK / 16 wgmma (each a step of 16
  //       along k), and give the stage back to the producer once the wgmma have finished
  //       reading it (wgmma is asynchronous: the README's "wgmma" says what orders it).
  keep_in_registers(d);

  // TODO: store the accumulators: which row and column of C does d[i] hold in this thread?
  //       (tensor_core_gemm_hopper.cuh, wgmma_m64n256k16)
#endif
}

}  // namespace

void step4_wgmma_tma(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step4_wgmma_tma", A, B, C, m, k, n);
  require_gpu_for_step(4);
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  const CUtensorMap a_map = make_tensor_map(A, m, k, k, BM, BK);
  const CUtensorMap b_map = make_tensor_map(b, k, ldb, ldb, BK, B_BOX_COLUMNS);
  COURSE_CHECK(cudaFuncSetAttribute(wgmma_tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    kSharedBytes));
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  wgmma_tma_kernel<<<grid, kThreads, kSharedBytes>>>(a_map, b_map, C, m, k, n, arm_watchdog());
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step4_resources() {
  return resources_of(reinterpret_cast<const void*>(wgmma_tma_kernel));
}

}  // namespace tensor_core_gemm::exercise
