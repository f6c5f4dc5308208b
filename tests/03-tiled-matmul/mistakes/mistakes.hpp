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

// Mds[ty][tx] stored after the first __syncthreads() instead of before it. Row ty of Mds is
// stored and read by the same warp, which on today's GPUs runs the store first: the numbers
// come out right, and it is a race all the same (racecheck sees it).
void m_tile_stored_after_the_barrier(const float* M, const float* N, float* P, int width);

// Each phase's M and N elements loaded during the previous phase (software pipelining), also
// after the last phase: those loads read past the end of M's row and of N. Their values are
// never used, so the numbers are right (memcheck sees it).
void prefetch_past_the_last_phase(const float* M, const float* N, float* P, int width);

}  // namespace tiled_matmul::mistakes
