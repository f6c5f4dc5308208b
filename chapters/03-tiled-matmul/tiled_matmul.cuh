// Chapter 03, tiled matrix multiplication: the API that the exercise, the solution and the
// known-wrong variants implement. P = M x N for square Width x Width row-major float matrices,
// TILE_WIDTH x TILE_WIDTH tiles of M and N staged in shared memory. This chapter's kernel needs
// Width to be a multiple of TILE_WIDTH; chapter 04 lifts that.
#pragma once

namespace tiled_matmul {

// The tile widths the kernel is instantiated for (a template parameter: the tile arrays and
// the inner loop are sized at compile time).
inline constexpr int kTileWidths[] = {8, 16, 32};

// Shared argument checks (std::invalid_argument): the matrices as in chapter 02, a tile width
// from kTileWidths, and Width a multiple of it.
void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int width, int tile_width);

#define TILED_MATMUL_DECLARE_STEPS                                                  \
  /* Steps 1 and 2: P = M x N in phases of TILE_WIDTH x TILE_WIDTH shared tiles. */ \
  void matmul(const float* M, const float* N, float* P, int width, int tile_width);

namespace solution {
TILED_MATMUL_DECLARE_STEPS
}  // namespace solution

namespace exercise {
TILED_MATMUL_DECLARE_STEPS
}  // namespace exercise

}  // namespace tiled_matmul
