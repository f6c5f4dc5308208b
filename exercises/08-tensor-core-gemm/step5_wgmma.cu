// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 08.5
// (or: meson test -C build --suite 08-tensor-core-gemm:exercise --print-errorlogs)
// (generated from solutions/08-tensor-core-gemm/ by python3 -m tools.sync_exercises)
// Step 5: Hopper's own multiply: wgmma, with warpgroups. Compute capability 9.0 with sm_90a
// code only (see tensor_core_gemm_hopper.cuh). The ring and its producer are step 4's,
// ready-made. Changed from step 4:
//  - the multiply: wgmma, one instruction per warpgroup (4 warps) for a 64 x 256 x 16 product,
//    reads A and B straight from shared memory through two descriptors (no ldmatrix, no
//    fragments in registers) and runs asynchronously: fence, issue, commit, and wait before the
//    results or the stage are touched;
//  - the roles by warpgroup: warpgroup 0 is the producer (one of its threads issues the TMA
//    copies, and the warpgroup gives its registers away with setmaxnreg), warpgroups 1 and 2 are
//    the consumers, each 64 rows of the block's 128 x 256 tile, each with 128 accumulators per
//    thread.
#include <cuda.h>

#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_hopper.cuh"
#include "tensor_core_gemm_ready_made.cuh"

namespace tensor_core_gemm::exercise {

namespace {

using namespace hopper;  // the ring (Ring, kStages, kConsumers, ...), mbarriers, TMA, wgmma

// Adds to d (this consumer warpgroup's 64 x 256 accumulators) the product of its 64 rows of the
// A tile in stage `stage` with the B tile there: BK / 16 wgmma, one per step of 16 along k,
// closed into one group. They run on when this returns: wgmma_wait says when they are done.
[[maybe_unused]] __device__ __forceinline__ void multiply_slice(float (&d)[128], const Ring& ring,
                                                               int stage, int consumer) {
  // TODO (step 5): fence the accumulators, issue the slice's wgmma (each with the descriptors
  //       of its 16 columns of A and 16 rows of B: the README's "Shared-memory matrix
  //       descriptors"), and commit them as one group.
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap a_map,
                 const __grid_constant__ CUtensorMap b_map, float* C, int m, int k, int n,
                 int first_tile_row, int first_tile_col, Watchdog watchdog) {
#if defined(TENSOR_CORE_GEMM_HOPPER)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  const Ring ring = make_ring(shared_bytes, full, empty);
  __syncthreads();  // the barriers are initialised
  const int block_row = (first_tile_row + blockIdx.y) * BM;
  const int block_col = (first_tile_col + blockIdx.x) * BN;
  const int warpgroup = threadIdx.x / 128;
  const int slices = course::ceil_div(k, BK);

  if (warpgroup == 0) {  // the producer: one thread, every slice, as soon as its stage is free
    release_registers<40>();
    if (threadIdx.x != 0) return;
    for (int t = 0; t < slices; ++t) {
      ready_made::produce_slice(ring, &a_map, &b_map, block_row, block_col, t, t, watchdog);
    }
    return;
  }

  claim_registers<232>();
  const int consumer = warpgroup - 1;
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (int t = 0; t < slices; ++t) {
    const int stage = ready_made::wait_until_full(ring, t, watchdog);
    multiply_slice(d, ring, stage, consumer);
    // TODO: the stage goes back to the producer below: make sure that the wgmma that read it
    //       can no longer be reading it (the README's "wgmma" says what orders them).
    ready_made::give_back(ring, stage);
  }
  keep_in_registers(d);

  // TODO: store the accumulators: which row and column of C does d[i] hold in this thread?
  //       (tensor_core_gemm_hopper.cuh, wgmma_m64n256k16)
#endif
}

}  // namespace

void step5_wgmma(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step5_wgmma", A, B, C, m, k, n);
  require_gpu_for_step(5);
  const OperandMaps maps = make_operand_maps(A, B, m, k, n);
  COURSE_CHECK(cudaFuncSetAttribute(wgmma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    kRingSharedBytes));
  // One grid of all the tiles (the tests also run each tile alone: tile_launches).
  const TileLaunches launches = tile_launches(course::ceil_div(m, BM), course::ceil_div(n, BN));
  const Watchdog watchdog = arm_watchdog();
  for (int i = 0; i < launches.count(); ++i) {
    wgmma_kernel<<<launches.grid(), kThreads, kRingSharedBytes>>>(
        maps.a, maps.b, C, m, k, n, launches.row(i), launches.col(i), watchdog);
    COURSE_CHECK(cudaGetLastError());
  }
}

KernelResources step5_resources() {
  return resources_of(reinterpret_cast<const void*>(wgmma_kernel));
}

}  // namespace tensor_core_gemm::exercise
