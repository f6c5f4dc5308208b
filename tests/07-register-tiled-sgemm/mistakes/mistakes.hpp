// Known-wrong variants of chapter 07's kernels. test_mistakes.cpp checks that each is rejected:
// by the numbers (the matrices sit between NaN guard zones), or by compute-sanitizer where the
// numbers come out right.
#pragma once

namespace register_tiled_sgemm::mistakes {

// Step 2 without the __syncthreads() between loading the tiles and using them: warps read
// slots that other warps have not written yet.
void missing_barrier_after_load(const float* M, const float* N, float* P, int m, int k, int n);

// Step 2 without the __syncthreads() after using the tiles: a fast warp loads the next slice
// over values a slow warp is still reading.
void missing_barrier_after_compute(const float* M, const float* N, float* P, int m, int k, int n);

// Step 3 whose float4 loads of N check the column but not the row: the last slice reads rows
// past the end of N.
void vector_load_past_the_edge(const float* M, const float* N, float* P, int m, int k, int n);

// Step 2 whose register tile reads M's tile at column dot + 1: every product is shifted by
// one step of the dot product.
void register_tile_index_off_by_one(const float* M, const float* N, float* P, int m, int k,
                                    int n);

// Step 3 whose float4 loads of M check the column but not the row. Rows past m only feed
// results that are never stored: the numbers are right, the reads are out of bounds.
void m_rows_unguarded(const float* M, const float* N, float* P, int m, int k, int n);

}  // namespace register_tiled_sgemm::mistakes
