// The classic mistakes of the tiled matmul kernel, one kernel each (see mistakes.hpp).
#include "course/errors.hpp"
#include "mistakes.hpp"

namespace tiled_matmul::mistakes {

namespace {

constexpr int TILE_WIDTH = 32;

enum class Bug { missing_first_sync, missing_second_sync, transposed_tile };

template <Bug BUG>
__global__ void kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * TILE_WIDTH + ty;
  const int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    if (BUG == Bug::transposed_tile) {
      Mds[tx][ty] = M[Row * Width + ph * TILE_WIDTH + tx];  // BUG: tx and ty swapped
    } else {
      Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    }
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    if (BUG != Bug::missing_first_sync) __syncthreads();  // BUG when missing
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    if (BUG != Bug::missing_second_sync) __syncthreads();  // BUG when missing
  }
  P[Row * Width + Col] = Pvalue;
}

template <Bug BUG>
void launch(const float* M, const float* N, float* P, int width) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH), grid(width / TILE_WIDTH, width / TILE_WIDTH);
  kernel<BUG><<<grid, block>>>(M, N, P, width);
  COURSE_CHECK_LAUNCH("tiled matmul mistake");
}

}  // namespace

void missing_first_syncthreads(const float* M, const float* N, float* P, int width) {
  launch<Bug::missing_first_sync>(M, N, P, width);
}
void missing_second_syncthreads(const float* M, const float* N, float* P, int width) {
  launch<Bug::missing_second_sync>(M, N, P, width);
}
void tile_loaded_transposed(const float* M, const float* N, float* P, int width) {
  launch<Bug::transposed_tile>(M, N, P, width);
}

}  // namespace tiled_matmul::mistakes
