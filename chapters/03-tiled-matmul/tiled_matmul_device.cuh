// Device pieces of chapter 03 that no step asks for. Each step's own piece, finished, is in
// tiled_matmul_ready_made.cuh, generated into the build folder from the solution: the tests run
// every step alone, your piece of that step with the ready-made pieces of the other steps, so
// that each step's tests judge that step's code only (read a piece after its step passes).
#pragma once

#include "tiled_matmul.cuh"

namespace tiled_matmul {

// True when step `step`'s piece is the learner's in a kernel built for `only_step` (0: every
// piece is the learner's, the kernel the benchmark times).
__host__ __device__ constexpr bool yours(int only_step, int step) {
  return only_step == 0 || only_step == step;
}

// The tests of step 1 fill both tiles with NaN before each phase's loads (and wait for the whole
// block): a slot the loads leave unwritten then shows as NaN in the results, where whatever an
// earlier phase or block left in shared memory could pass unnoticed.
template <int TILE_WIDTH>
__device__ __forceinline__ void poison_tiles(float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                             float (&Nds)[TILE_WIDTH][TILE_WIDTH]) {
  Mds[threadIdx.y][threadIdx.x] = Nds[threadIdx.y][threadIdx.x] = __int_as_float(0x7fffffff);
  __syncthreads();  // every slot holds NaN before any thread loads
}

}  // namespace tiled_matmul
