// The classic boundary mistakes of the tiled kernel, one template with a switch (see
// mistakes.hpp). Tile width 16 or 8.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "mistakes.hpp"

namespace arbitrary_width_tiles::mistakes {

namespace {

enum class Bug { loads_unguarded, slots_not_zeroed, store_unguarded, only_last_phase, m_after_barrier };

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
    float m_value = 0.0f;
    if (!guard || m_inside) {
      m_value = M[Row * Width + ph * T + tx];
      if (BUG != Bug::m_after_barrier) Mds[ty][tx] = m_value;
    } else if (BUG != Bug::slots_not_zeroed && BUG != Bug::m_after_barrier) {  // BUG when not zeroed
      Mds[ty][tx] = 0.0f;
    }
    if (!guard || n_inside) {
      Nds[ty][tx] = N[(ph * T + ty) * Width + Col];
    } else if (BUG != Bug::slots_not_zeroed) {
      Nds[ty][tx] = 0.0f;
    }
    __syncthreads();
    // BUG (m_after_barrier): Mds stored after the barrier. Its row ty is read only by the warp
    // that stores it, so the numbers come out right; without __syncwarp() it is a race.
    if (BUG == Bug::m_after_barrier) Mds[ty][tx] = m_value;
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
void m_tile_stored_after_the_barrier(const float* M, const float* N, float* P, int width,
                                     int tile_width) {
  launch<Bug::m_after_barrier>(M, N, P, width, tile_width);
}

namespace {

// Step 4's kernel with the N-tile guard loosened from n_row < k to n_row <= k.
template <int T>
__global__ void n_row_guard_off_by_one_kernel(const float* M, const float* N, float* P, int m,
                                              int k, int n) {
  __shared__ float Mds[T][T];
  __shared__ float Nds[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < (k + T - 1) / T; ++ph) {
    const int m_col = ph * T + tx, n_row = ph * T + ty;
    Mds[ty][tx] = (Row < m && m_col < k) ? M[Row * k + m_col] : 0.0f;
    Nds[ty][tx] = (n_row <= k && Col < n) ? N[n_row * n + Col] : 0.0f;  // BUG: <= reads row k
    __syncthreads();
    for (int j = 0; j < T; ++j) Pvalue += Mds[ty][j] * Nds[j][tx];
    __syncthreads();
  }
  if (Row < m && Col < n) P[Row * n + Col] = Pvalue;
}

}  // namespace

void n_row_guard_off_by_one(const float* M, const float* N, float* P, int m, int k, int n) {
  const dim3 grid(course::ceil_div(n, 16), course::ceil_div(m, 16));
  n_row_guard_off_by_one_kernel<16><<<grid, dim3(16, 16)>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("n_row_guard_off_by_one");
}

}  // namespace arbitrary_width_tiles::mistakes
