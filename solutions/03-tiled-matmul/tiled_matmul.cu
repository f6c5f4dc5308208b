// Tiled matrix multiplication (PMPP 5.4): each block computes one TILE_WIDTH x TILE_WIDTH tile
// of P. In phase ph its threads first copy one tile of M and one tile of N into shared memory,
// one element each, then every thread adds the TILE_WIDTH products it needs from the shared
// copies. Each element loaded from global memory is now used TILE_WIDTH times: the
// compute-to-global-memory-access ratio rises from 1 (chapter 02) to TILE_WIDTH.
#include "course/errors.hpp"
#include "tiled_matmul.cuh"

namespace tiled_matmul::solution {

namespace {

template <int TILE_WIDTH>
__global__ void tiled_matmul_kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = by * TILE_WIDTH + ty;  // the P element this thread computes
  const int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    // BEGIN SOLUTION
    // TODO (step 1): copy this thread's element of the phase's tiles into shared memory:
    //       Mds[ty][tx] gets M's element in row Row, column ph * TILE_WIDTH + tx;
    //       Nds[ty][tx] gets N's element in row ph * TILE_WIDTH + ty, column Col.
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];    // consecutive tx, consecutive
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];  // addresses: both coalesced
    // END SOLUTION
    // BEGIN SOLUTION
    // TODO (step 2): wait until the whole tile is loaded, add Mds[ty][k] * Nds[k][tx] for
    //       k = 0 .. TILE_WIDTH-1 to Pvalue, and wait again before the next phase overwrites
    //       the tiles.
    __syncthreads();  // read-after-write: other threads loaded most of what we read next
#pragma unroll  // TILE_WIDTH is a compile-time constant: no loop counter, no branch
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();  // write-after-read: nobody overwrites a tile that a slow warp still reads
    // END SOLUTION
  }
  P[Row * Width + Col] = Pvalue;
}

template <int TILE_WIDTH>
void launch(const float* M, const float* N, float* P, int width) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid(width / TILE_WIDTH, width / TILE_WIDTH);  // Width is a multiple: no rounding
  tiled_matmul_kernel<TILE_WIDTH><<<grid, block>>>(M, N, P, width);
  COURSE_CHECK_LAUNCH("tiled_matmul_kernel");
}

}  // namespace

void matmul(const float* M, const float* N, float* P, int width, int tile_width) {
  check_arguments("tiled_matmul::matmul", M, N, P, width, tile_width);
  switch (tile_width) {
    case 8: return launch<8>(M, N, P, width);
    case 16: return launch<16>(M, N, P, width);
    default: return launch<32>(M, N, P, width);
  }
}

}  // namespace tiled_matmul::solution
