// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 04.1   (and 04.2, 04.3: this file's steps, one at a time)
// (or: meson test -C build --suite 04-arbitrary-width-tiles:exercise --print-errorlogs)
// (generated from solutions/04-arbitrary-width-tiles/ by python3 -m tools.sync_exercises)
// Steps 1-3: the tiled kernel of chapter 03 for ANY Width (PMPP 5.5).
// With Width not a multiple of TILE_WIDTH the last tile of each row and column sticks out of
// the matrix. A thread whose element of M (or N) lies outside would read past the end of a row,
// which is the start of the next row, or past the end of the matrix. So each load is guarded
// and writes 0.0 when it is outside: a zero adds nothing to the inner product. The store is
// guarded too: threads outside P compute garbage and must not write it.
#include "arbitrary_width_tiles.cuh"
#include "arbitrary_width_tiles_device.cuh"
#include "arbitrary_width_tiles_ready_made.cuh"
#include "course/errors.hpp"
#include "course/math.hpp"

namespace arbitrary_width_tiles::exercise {

namespace {

// Step 1: this thread's element of phase ph's tile of M.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_m_tile(const float* M, float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                            int Row, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  // TODO (step 1): put this thread's element of phase ph's M tile in Mds[ty][tx], as in
  //       chapter 03, except where that element lies outside M: there the tile gets 0.0f and M
  //       is never read. (When does it lie outside? ./course hint 04.1.)
}

// Step 2: this thread's element of phase ph's tile of N.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_n_tile(const float* N, float (&Nds)[TILE_WIDTH][TILE_WIDTH],
                                            int Col, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  // TODO (step 2): put this thread's element of phase ph's N tile in Nds[ty][tx], as in
  //       chapter 03, but 0.0f when that element lies outside N: never read N there.
}

// Step 3: this thread's result into P.
__device__ __forceinline__ void store_result(float* P, float Pvalue, int Row, int Col,
                                             int Width) {
  // TODO (step 3): store Pvalue as element (Row, Col) of P, only if that element lies inside P.
}

// ONLY_STEP 0: every piece above is yours (the benchmark's kernel). The tests also run each
// step alone (ONLY_STEP = S): your piece of step S, the other steps' from
// arbitrary_width_tiles_ready_made.cuh, and for steps 1 and 2 the tile you load filled with NaN
// before your load.
template <int TILE_WIDTH, int ONLY_STEP>
__global__ void any_width_kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = blockIdx.y * TILE_WIDTH + ty;
  const int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  const int phases = (Width + TILE_WIDTH - 1) / TILE_WIDTH;  // the last one may be partial
  for (int ph = 0; ph < phases; ++ph) {
    if constexpr (ONLY_STEP == 1) poison_tile(Mds);
    if constexpr (ONLY_STEP == 2) poison_tile(Nds);
    if constexpr (yours(ONLY_STEP, 1)) {
      load_m_tile(M, Mds, Row, ph, Width);
    } else {
      ready_made::load_m_tile(M, Mds, Row, ph, Width);
    }
    if constexpr (yours(ONLY_STEP, 2)) {
      load_n_tile(N, Nds, Col, ph, Width);
    } else {
      ready_made::load_n_tile(N, Nds, Col, ph, Width);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if constexpr (yours(ONLY_STEP, 3)) {
    store_result(P, Pvalue, Row, Col, Width);
  } else {
    ready_made::store_result(P, Pvalue, Row, Col, Width);
  }
}

template <int TILE_WIDTH>
void launch(const float* M, const float* N, float* P, int width, int only_step) {
  const unsigned tiles = course::ceil_div(width, TILE_WIDTH);  // rounded up: partial tiles too
  const dim3 grid(tiles, tiles), block(TILE_WIDTH, TILE_WIDTH);
  switch (only_step) {
    case 1: any_width_kernel<TILE_WIDTH, 1><<<grid, block>>>(M, N, P, width); break;
    case 2: any_width_kernel<TILE_WIDTH, 2><<<grid, block>>>(M, N, P, width); break;
    case 3: any_width_kernel<TILE_WIDTH, 3><<<grid, block>>>(M, N, P, width); break;
    default: any_width_kernel<TILE_WIDTH, 0><<<grid, block>>>(M, N, P, width);
  }
  COURSE_CHECK_LAUNCH("any_width_kernel");
}

}  // namespace

void matmul(const float* M, const float* N, float* P, int width, int tile_width, int only_step) {
  check_arguments("arbitrary_width_tiles::matmul", M, N, P, width, width, width, tile_width,
                  only_step);
  switch (tile_width) {
    case 2: return launch<2>(M, N, P, width, only_step);
    case 8: return launch<8>(M, N, P, width, only_step);
    case 16: return launch<16>(M, N, P, width, only_step);
    default: return launch<32>(M, N, P, width, only_step);
  }
}

}  // namespace arbitrary_width_tiles::exercise
