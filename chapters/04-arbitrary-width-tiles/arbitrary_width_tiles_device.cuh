// Device pieces of chapter 04.
//
// ready_made:: holds each piece of steps 1-3 of the any-Width kernel, finished: the answer of
// that step (do the step before reading it). The tests run every step alone: your piece of that
// step with these pieces for the other steps, so that each step's tests judge that step's code.
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

namespace ready_made {

// Step 1 (read it after step 1): this thread's element of phase ph's tile of M, 0.0f outside M.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_m_tile(const float* M, float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                            int Row, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = ph * TILE_WIDTH + tx;
  Mds[ty][tx] = (Row < Width && col < Width) ? M[Row * Width + col] : 0.0f;
}

// Step 2 (read it after step 2): this thread's element of phase ph's tile of N, 0.0f outside N.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_n_tile(const float* N, float (&Nds)[TILE_WIDTH][TILE_WIDTH],
                                            int Col, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = ph * TILE_WIDTH + ty;
  Nds[ty][tx] = (row < Width && Col < Width) ? N[row * Width + Col] : 0.0f;
}

// Step 3 (read it after step 3): Pvalue stored where it belongs, nothing stored outside P.
__device__ __forceinline__ void store_result(float* P, float Pvalue, int Row, int Col,
                                             int Width) {
  if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;
}

}  // namespace ready_made

}  // namespace arbitrary_width_tiles
