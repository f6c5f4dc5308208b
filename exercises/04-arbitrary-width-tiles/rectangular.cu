// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 04.4
// (or: meson test -C build --suite 04-arbitrary-width-tiles:exercise --print-errorlogs)
// (generated from solutions/04-arbitrary-width-tiles/ by python3 -m tools.sync_exercises)
// Step 4: rectangular matrices. P (m x n) = M (m x k) x N (k x n), each size arbitrary.
// The square kernel's three guards, each against the right dimension: a row of M or P is
// inside when Row < m; a column of N or P when Col < n; the inner index (a column of M, a row of
// N) when it is below k. The number of phases is set by k, the grid by m (rows) and n (columns).
#include "arbitrary_width_tiles.cuh"
#include "course/errors.hpp"
#include "course/math.hpp"

namespace arbitrary_width_tiles::exercise {

namespace {

template <int TILE_WIDTH>
__global__ void rectangular_kernel(const float* M, const float* N, float* P, int m, int k,
                                   int n) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * TILE_WIDTH + ty;
  const int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    // TODO (step 4): load Mds[ty][tx] and Nds[ty][tx] as in steps 1 and 2, now from M of
    //       m x k and N of k x n (0.0f for elements outside them).
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE_WIDTH; ++j) Pvalue += Mds[ty][j] * Nds[j][tx];
    __syncthreads();
  }
  // TODO (step 4): store Pvalue if (Row, Col) is inside P.
}

template <int TILE_WIDTH>
void launch(const float* M, const float* N, float* P, int m, int k, int n) {
  const dim3 grid(course::ceil_div(n, TILE_WIDTH), course::ceil_div(m, TILE_WIDTH));
  rectangular_kernel<TILE_WIDTH><<<grid, dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("rectangular_kernel");
}

}  // namespace

void matmul_rectangular(const float* M, const float* N, float* P, int m, int k, int n,
                        int tile_width) {
  check_arguments("arbitrary_width_tiles::matmul_rectangular", M, N, P, m, k, n, tile_width);
  switch (tile_width) {
    case 2: return launch<2>(M, N, P, m, k, n);
    case 8: return launch<8>(M, N, P, m, k, n);
    case 16: return launch<16>(M, N, P, m, k, n);
    default: return launch<32>(M, N, P, m, k, n);
  }
}

}  // namespace arbitrary_width_tiles::exercise
