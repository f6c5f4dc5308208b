// Chapter 04, tiles with boundary checks: the API that the exercise and the solution (and the known
// mistakes planted into it) implement. The tiled kernel of chapter 03, made correct for any size:
// square Width x Width (steps 1-3), then rectangular M (m x k) times N (k x n) (step 4). All
// matrices row-major floats in GPU memory.
#pragma once

#include <string_view>

#include "arbitrary_width_tiles_steps.hpp"  // kSteps, kStepCount: generated from steps.json
#include "course/math.hpp"

namespace arbitrary_width_tiles {

// The tile widths the kernels are compiled for. 2 is there for the README's 3 x 3 example
// and for tests that cross many tile boundaries.
inline constexpr int kTileWidths[] = {2, 8, 16, 32};

// The kernels put one row of blocks per TILE_WIDTH rows of P in gridDim.y, which holds at most
// 65535: the most rows one launch reaches. Only step 4 gets near it (a square Width is at most
// 46340 by the 2^31 element limit); with tile width 2 it is 131070 rows.
constexpr int max_rows(int tile_width) { return course::kMaxGridDimY * tile_width; }

// Steps 1-3 are the pieces of one kernel (matmul), their TODOs in square_any_width.cu: guarded
// M loads, guarded N loads, guarded store. Step 4 is a kernel of its own (matmul_rectangular).
constexpr int square_step_count() {
  int count = 0;
  for (const StepInfo& step : kSteps) count += std::string_view(step.file) == "square_any_width.cu";
  return count;
}
inline constexpr int kSquareStepCount = square_step_count();

// Shared argument checks (std::invalid_argument with what to pass instead): sizes of at least
// 1, every matrix's element count below 2^31 (the kernels index with int), non-null pointers,
// a tile width from kTileWidths, at most max_rows(tile_width) rows, and only_step 0 or a step
// of the square kernel.
void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n, int tile_width, int only_step = 0);

// matmul's only_step 0 runs every piece of the kernel as written in square_any_width.cu;
// only_step S (the tests of step S) runs step S's piece with the other steps' pieces ready-made
// (arbitrary_width_tiles_ready_made.cuh, generated from the solution).
#define ARBITRARY_WIDTH_TILES_DECLARE_STEPS                                                    \
  /* Steps 1-3: P = M x N for any Width: guarded M loads, guarded N loads, guarded store. */  \
  void matmul(const float* M, const float* N, float* P, int width, int tile_width,            \
              int only_step = 0);                                                              \
  /* Step 4: P (m x n) = M (m x k) x N (k x n), all three sizes arbitrary. */                 \
  void matmul_rectangular(const float* M, const float* N, float* P, int m, int k, int n,      \
                          int tile_width);

namespace solution {
ARBITRARY_WIDTH_TILES_DECLARE_STEPS
}  // namespace solution

namespace exercise {
ARBITRARY_WIDTH_TILES_DECLARE_STEPS
}  // namespace exercise

}  // namespace arbitrary_width_tiles
