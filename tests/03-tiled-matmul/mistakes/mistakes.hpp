// Known-wrong variants of the tiled matmul kernel (32 x 32 tiles); test_mistakes.cpp checks
// that the tests reject each one.
#pragma once

namespace tiled_matmul::mistakes {

// No __syncthreads() between loading the tiles and using them: threads read tile elements
// that other warps have not loaded yet.
void missing_first_syncthreads(const float* M, const float* N, float* P, int width);

// No __syncthreads() after using the tiles: fast warps load the next phase's tiles over
// elements that slow warps are still reading.
void missing_second_syncthreads(const float* M, const float* N, float* P, int width);

// The M tile stored with tx and ty swapped: Mds[tx][ty] instead of Mds[ty][tx].
void tile_loaded_transposed(const float* M, const float* N, float* P, int width);

}  // namespace tiled_matmul::mistakes
