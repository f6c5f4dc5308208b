// Device pieces of chapter 04 that no step asks for. Each piece of steps 1-3, finished, is in
// arbitrary_width_tiles_ready_made.cuh, generated into the build folder from the solution: the
// tests run every step alone, your piece of that step with the ready-made pieces of the other
// steps, so that each step's tests judge that step's code (read a piece after its step passes).
#pragma once

#include "arbitrary_width_tiles.cuh"

namespace arbitrary_width_tiles {

// True when step `step`'s piece is the learner's in a kernel built for `only_step` (0: every
// piece is the learner's, the kernel the benchmark times).
__host__ __device__ constexpr bool yours(int only_step, int step) {
  return only_step == 0 || only_step == step;
}

// The tests of steps 1 and 2 fill the tile that the step loads with NaN before each phase's loads
// (and wait for the whole block): a slot the load leaves unwritten (outside the matrix, say)
// then shows as NaN in the results, where whatever an earlier phase or block left in shared
// memory could pass unnoticed.
template <int TILE_WIDTH>
__device__ __forceinline__ void poison_tile(float (&tile)[TILE_WIDTH][TILE_WIDTH]) {
  tile[threadIdx.y][threadIdx.x] = __int_as_float(0x7fffffff);
  __syncthreads();  // every slot holds NaN before any thread loads
}

}  // namespace arbitrary_width_tiles
