// Steps 1-3: the tiled kernel of chapter 03 for ANY Width (PMPP 5.5).
// With Width not a multiple of TILE_WIDTH the last tile of each row and column sticks out of
// the matrix. A thread whose element of M (or N) lies outside would read past the end of a row,
// which is the start of the next row, or past the end of the matrix. So each load is guarded
// and writes 0.0 when it is outside: a zero adds nothing to the inner product. The store is
// guarded too: threads outside P compute garbage and must not write it.
#include "boundary_tiled_matmul.cuh"
#include "course/errors.hpp"
#include "course/math.hpp"

namespace boundary_tiled_matmul::solution {

namespace {

template <int TILE_WIDTH>
__global__ void any_width_kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * TILE_WIDTH + ty;
  const int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  const int phases = (Width + TILE_WIDTH - 1) / TILE_WIDTH;  // the last one may be partial
  for (int ph = 0; ph < phases; ++ph) {
    // BEGIN SOLUTION
    // TODO (step 1): load Mds[ty][tx] from row Row, column ph * TILE_WIDTH + tx of M, but only
    //       if both are inside the matrix; otherwise store 0.0f.
    if (Row < Width && ph * TILE_WIDTH + tx < Width) {
      Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    } else {
      Mds[ty][tx] = 0.0f;  // harmless in the inner product
    }
    // END SOLUTION
    // BEGIN SOLUTION
    // TODO (step 2): load Nds[ty][tx] from row ph * TILE_WIDTH + ty, column Col of N, but only
    //       if both are inside the matrix; otherwise store 0.0f.
    if (ph * TILE_WIDTH + ty < Width && Col < Width) {
      Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    } else {
      Nds[ty][tx] = 0.0f;
    }
    // END SOLUTION
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  // BEGIN SOLUTION
  // TODO (step 3): store Pvalue in P[Row * Width + Col], only if the element is inside P.
  if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;
  // END SOLUTION
}

template <int TILE_WIDTH>
void launch(const float* M, const float* N, float* P, int width) {
  const unsigned tiles = course::ceil_div(width, TILE_WIDTH);  // rounded up: partial tiles too
  any_width_kernel<TILE_WIDTH><<<dim3(tiles, tiles), dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, width);
  COURSE_CHECK_LAUNCH("any_width_kernel");
}

}  // namespace

void matmul(const float* M, const float* N, float* P, int width, int tile_width) {
  check_arguments("boundary_tiled_matmul::matmul", M, N, P, width, width, width, tile_width);
  switch (tile_width) {
    case 2: return launch<2>(M, N, P, width);
    case 8: return launch<8>(M, N, P, width);
    case 16: return launch<16>(M, N, P, width);
    default: return launch<32>(M, N, P, width);
  }
}

}  // namespace boundary_tiled_matmul::solution
