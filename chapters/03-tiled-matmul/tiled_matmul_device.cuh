// Device pieces of chapter 03.
//
// ready_made:: holds each step's piece of the tiled kernel, finished: the answer of that step
// (do the step before reading it). The tests run every step alone: your piece of that step with
// these pieces for the other steps, so that each step's tests judge that step's code only.
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

namespace ready_made {

// Step 1 (read it after step 1): this thread's element of phase ph's tile of M and of N.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_phase_tiles(const float* M, const float* N,
                                                 float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                                 float (&Nds)[TILE_WIDTH][TILE_WIDTH], int Row,
                                                 int Col, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
  Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
}

// Step 2 (read it after step 2): the barriers around this thread's partial products.
template <int TILE_WIDTH>
__device__ __forceinline__ void multiply_phase_tiles(const float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                                     const float (&Nds)[TILE_WIDTH][TILE_WIDTH],
                                                     float& Pvalue) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
  __syncthreads();
}

}  // namespace ready_made

}  // namespace tiled_matmul
