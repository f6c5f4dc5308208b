// The classic mistakes of the tiled matmul kernel, one kernel each (see mistakes.hpp).
#include "course/errors.hpp"
#include "mistakes.hpp"

namespace tiled_matmul::mistakes {

namespace {

constexpr int TILE_WIDTH = 32;

enum class Bug {
  missing_first_sync,
  missing_second_sync,
  transposed_tile,
  m_tile_after_barrier,
  prefetch_past_last_phase
};

template <Bug BUG>
__global__ void kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * TILE_WIDTH + ty;
  const int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  const int phases = Width / TILE_WIDTH;
  // prefetch_past_last_phase: this phase's elements, loaded during the previous phase.
  float next_m = M[Row * Width + tx], next_n = N[ty * Width + Col];
  for (int ph = 0; ph < phases; ++ph) {
    const float m = BUG == Bug::prefetch_past_last_phase ? next_m : M[Row * Width + ph * TILE_WIDTH + tx];
    const float n = BUG == Bug::prefetch_past_last_phase ? next_n : N[(ph * TILE_WIDTH + ty) * Width + Col];
    if (BUG == Bug::prefetch_past_last_phase) {
      // BUG: also after the last phase, where these read past M's row and past the end of N.
      next_m = M[Row * Width + (ph + 1) * TILE_WIDTH + tx];
      next_n = N[((ph + 1) * TILE_WIDTH + ty) * Width + Col];
    }
    if (BUG == Bug::transposed_tile) {
      Mds[tx][ty] = m;  // BUG: tx and ty swapped
    } else if (BUG != Bug::m_tile_after_barrier) {
      Mds[ty][tx] = m;
    }
    Nds[ty][tx] = n;
    if (BUG != Bug::missing_first_sync) __syncthreads();  // BUG when missing
    // BUG (m_tile_after_barrier): stored after the barrier. Row ty of Mds is read only by the
    // warp that stores it, so the numbers come out right; without __syncwarp() it is a race.
    if (BUG == Bug::m_tile_after_barrier) Mds[ty][tx] = m;
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
void m_tile_stored_after_the_barrier(const float* M, const float* N, float* P, int width) {
  launch<Bug::m_tile_after_barrier>(M, N, P, width);
}
void prefetch_past_the_last_phase(const float* M, const float* N, float* P, int width) {
  launch<Bug::prefetch_past_last_phase>(M, N, P, width);
}

}  // namespace tiled_matmul::mistakes
