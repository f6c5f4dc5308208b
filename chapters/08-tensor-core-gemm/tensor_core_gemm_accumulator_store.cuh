// The store of a warp's mma.sync accumulators, ready-made for step 3. Step 2 asks you to write
// this one yourself: open this file after step 2.
#pragma once

#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm {

// Stores a warp's TILES_M x TILES_N tiles of 16 x 8 results, acc[i][j][0..3] being the C
// fragment of mma_m16n8k16 for the tile whose top-left result is C(row0 + 16 i, col0 + 8 j),
// inside m x n only.
template <int TILES_M, int TILES_N>
__device__ __forceinline__ void store_accumulators(float* C, int m, int n, int row0, int col0,
                                                   const float (&acc)[TILES_M][TILES_N][4]) {
  const int lane = threadIdx.x % 32;
  const int group = lane / 4, pair = (lane % 4) * 2;
#pragma unroll
  for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (int j = 0; j < TILES_N; ++j) {
      const int row = row0 + i * 16 + group, col = col0 + j * 8 + pair;
      store_result_pair(C, m, n, row, col, acc[i][j][0], acc[i][j][1]);
      store_result_pair(C, m, n, row + 8, col, acc[i][j][2], acc[i][j][3]);
    }
  }
}

}  // namespace tensor_core_gemm
