// Chapter 03, tiled matrix multiplication: the API that the exercise and the solution (and the
// known mistakes planted into it) implement. P = M x N for square Width x Width row-major float
// matrices, TILE_WIDTH x TILE_WIDTH tiles of M and N staged in shared memory. This chapter's kernel
// needs Width to be a multiple of TILE_WIDTH; chapter 04 lifts that.
#pragma once

#include "tiled_matmul_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace tiled_matmul {

// The tile widths the kernel is instantiated for (a template parameter: the tile arrays and
// the inner loop are sized at compile time).
inline constexpr int kTileWidths[] = {8, 16, 32};

// Shared argument checks (std::invalid_argument): the matrices as in chapter 02, a tile width
// from kTileWidths, Width a multiple of it, and only_step 0 or a step number.
void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int width, int tile_width, int only_step = 0);

// Steps 1 and 2: P = M x N in phases of TILE_WIDTH x TILE_WIDTH shared tiles. only_step 0 runs
// every piece of the kernel as written in that file; only_step S (the tests of step S) runs
// step S's piece with the other steps' pieces ready-made (tiled_matmul_device.cuh).
#define TILED_MATMUL_DECLARE_STEPS                                                 \
  void matmul(const float* M, const float* N, float* P, int width, int tile_width, \
              int only_step = 0);

namespace solution {
TILED_MATMUL_DECLARE_STEPS
}  // namespace solution

namespace exercise {
TILED_MATMUL_DECLARE_STEPS
}  // namespace exercise

}  // namespace tiled_matmul
