// The classic boundary mistakes of the tiled kernel, one template with a switch (see
// mistakes.hpp). Tile width 16 or 8.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "mistakes.hpp"

namespace boundary_tiled_matmul::mistakes {

namespace {

enum class Bug { loads_unguarded, slots_not_zeroed, store_unguarded, only_last_phase };

template <int T, Bug BUG>
__global__ void kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[T][T];
  __shared__ float Nds[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
  const int phases = (Width + T - 1) / T;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < phases; ++ph) {
    const bool m_inside = Row < Width && ph * T + tx < Width;
    const bool n_inside = ph * T + ty < Width && Col < Width;
    const bool guard = BUG != Bug::loads_unguarded &&
                       (BUG != Bug::only_last_phase || ph == phases - 1);  // BUG (see header)
    if (!guard || m_inside) {
      Mds[ty][tx] = M[Row * Width + ph * T + tx];
    } else if (BUG != Bug::slots_not_zeroed) {  // BUG when not zeroed
      Mds[ty][tx] = 0.0f;
    }
    if (!guard || n_inside) {
      Nds[ty][tx] = N[(ph * T + ty) * Width + Col];
    } else if (BUG != Bug::slots_not_zeroed) {
      Nds[ty][tx] = 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if (BUG == Bug::store_unguarded || (Row < Width && Col < Width)) {  // BUG when unguarded
    P[Row * Width + Col] = Pvalue;
  }
}

template <Bug BUG>
void launch(const float* M, const float* N, float* P, int width, int tile_width) {
  const unsigned tiles = course::ceil_div(width, tile_width);
  const dim3 grid(tiles, tiles), block(tile_width, tile_width);
  if (tile_width == 8) {
    kernel<8, BUG><<<grid, block>>>(M, N, P, width);
  } else {
    kernel<16, BUG><<<grid, block>>>(M, N, P, width);
  }
  COURSE_CHECK_LAUNCH("boundary mistake");
}

}  // namespace

void loads_unguarded(const float* M, const float* N, float* P, int width, int tile_width) {
  launch<Bug::loads_unguarded>(M, N, P, width, tile_width);
}
void tile_slots_not_zeroed(const float* M, const float* N, float* P, int width, int tile_width) {
  launch<Bug::slots_not_zeroed>(M, N, P, width, tile_width);
}
void store_unguarded(const float* M, const float* N, float* P, int width, int tile_width) {
  launch<Bug::store_unguarded>(M, N, P, width, tile_width);
}
void only_last_phase_guarded(const float* M, const float* N, float* P, int width,
                             int tile_width) {
  launch<Bug::only_last_phase>(M, N, P, width, tile_width);
}

}  // namespace boundary_tiled_matmul::mistakes
