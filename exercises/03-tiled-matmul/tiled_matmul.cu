// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 03.1   (and 03.2: this file's steps, one at a time)
// (or: meson test -C build --suite 03-tiled-matmul:exercise --print-errorlogs)
// (generated from solutions/03-tiled-matmul/ by python3 -m tools.sync_exercises)
// Tiled matrix multiplication (PMPP 5.4): each block computes one TILE_WIDTH x TILE_WIDTH tile
// of P. In phase ph its threads first copy one tile of M and one tile of N into shared memory,
// one element each, then every thread adds the TILE_WIDTH products it needs from the shared
// copies. Each element loaded from global memory is now used TILE_WIDTH times: the
// compute-to-global-memory-access ratio rises from 1 (chapter 02) to TILE_WIDTH.
#include "course/errors.hpp"
#include "tiled_matmul.cuh"
#include "tiled_matmul_device.cuh"
#include "tiled_matmul_ready_made.cuh"

namespace tiled_matmul::exercise {

namespace {

// Step 1: phase ph's tiles, one element of each per thread, from global into shared memory.
template <int TILE_WIDTH>
__device__ __forceinline__ void load_phase_tiles(const float* M, const float* N,
                                                 float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                                 float (&Nds)[TILE_WIDTH][TILE_WIDTH], int Row,
                                                 int Col, int ph, int Width) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  // TODO (step 1): for phase ph, fill Mds with the tile of M and Nds with the tile of N whose
  //       products this phase adds to P's tile; each thread copies one element of each, to its
  //       own (ty, tx) in the tile. Which tiles those are: ./course hint 03.1.
}

// Step 2: this thread's partial products of one phase, between the two barriers they need.
template <int TILE_WIDTH>
__device__ __forceinline__ void multiply_phase_tiles(const float (&Mds)[TILE_WIDTH][TILE_WIDTH],
                                                     const float (&Nds)[TILE_WIDTH][TILE_WIDTH],
                                                     float& Pvalue) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  // TODO (step 2): add to Pvalue this phase's TILE_WIDTH products of this thread's row of Mds
  //       and column of Nds. No thread may read the tiles before every thread's elements are in
  //       them, and none may overwrite them (next phase) while another still reads them.
}

// ONLY_STEP 0: every piece above is yours (the benchmark's kernel). The tests also run each
// step alone (ONLY_STEP = S): your piece of step S, the other step's from
// tiled_matmul_ready_made.cuh, and for step 1 tiles filled with NaN before your loads.
template <int TILE_WIDTH, int ONLY_STEP>
__global__ void tiled_matmul_kernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;  // the P element this thread computes
  const int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float Pvalue = 0.0f;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    if constexpr (ONLY_STEP == 1) poison_tiles(Mds, Nds);
    if constexpr (yours(ONLY_STEP, 1)) {
      load_phase_tiles(M, N, Mds, Nds, Row, Col, ph, Width);
    } else {
      ready_made::load_phase_tiles(M, N, Mds, Nds, Row, Col, ph, Width);
    }
    if constexpr (yours(ONLY_STEP, 2)) {
      multiply_phase_tiles(Mds, Nds, Pvalue);
    } else {
      ready_made::multiply_phase_tiles(Mds, Nds, Pvalue);
    }
  }
  P[Row * Width + Col] = Pvalue;
}

template <int TILE_WIDTH>
void launch(const float* M, const float* N, float* P, int width, int only_step) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid(width / TILE_WIDTH, width / TILE_WIDTH);  // Width is a multiple: no rounding
  switch (only_step) {
    case 1: tiled_matmul_kernel<TILE_WIDTH, 1><<<grid, block>>>(M, N, P, width); break;
    case 2: tiled_matmul_kernel<TILE_WIDTH, 2><<<grid, block>>>(M, N, P, width); break;
    default: tiled_matmul_kernel<TILE_WIDTH, 0><<<grid, block>>>(M, N, P, width);
  }
  COURSE_CHECK_LAUNCH("tiled_matmul_kernel");
}

}  // namespace

void matmul(const float* M, const float* N, float* P, int width, int tile_width, int only_step) {
  check_arguments("tiled_matmul::matmul", M, N, P, width, tile_width, only_step);
  switch (tile_width) {
    case 8: return launch<8>(M, N, P, width, only_step);
    case 16: return launch<16>(M, N, P, width, only_step);
    default: return launch<32>(M, N, P, width, only_step);
  }
}

}  // namespace tiled_matmul::exercise
