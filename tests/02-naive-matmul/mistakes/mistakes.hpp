// Known-wrong variants of the naive matmul kernel; test_mistakes.cpp checks that the tests
// reject each one. All use the solution's launch configuration.
#pragma once

namespace naive_matmul::mistakes {

// Row and column swapped in the store: P[Col][Row] = ..., the transpose of the answer.
void transposed_store(const float* M, const float* N, float* P, int width, int block_side);

// No `if (Row < Width && Col < Width)`: the threads of the partial blocks at the right and
// bottom edges read past the matrices and write into other rows and past the end of P.
void missing_bounds_check(const float* M, const float* N, float* P, int width, int block_side);

// N[k * Width + Row]: N indexed by the row instead of the column.
void n_indexed_by_row(const float* M, const float* N, float* P, int width, int block_side);

// The bounds check around the store only: threads outside the matrix still compute their dot
// product, reading past the end of M's rows and of N. They never store it, so the numbers are
// right; the reads are out of bounds all the same (memcheck sees them).
void only_the_store_guarded(const float* M, const float* N, float* P, int width, int block_side);

// Each warp's lane 0 computes the row index and shares it through shared memory, and the other
// lanes read it without __syncwarp(): a data race inside the warp, whatever it gives today.
// racecheck sees it.
void row_shared_without_syncwarp(const float* M, const float* N, float* P, int width,
                                 int block_side);

}  // namespace naive_matmul::mistakes
