// Known-wrong variants of chapter 01's steps: each reproduces one classic bug. The tests must
// reject every one of them (test_mistakes.cpp); the README shows what each looks like.
#pragma once

#include "sum_of_squares.cuh"

namespace sum_of_squares::mistakes {

// Step 2 with chunk = n / threads (rounded down): the last n % threads elements are never read.
Result chunk_rounded_down(const int* input, std::size_t n, int threads, Workspace& workspace);

// Step 3 with `int sum` and an int product: wraps at 2^31 long before the true sum does.
Result int_accumulator(const int* input, std::size_t n, int threads, Workspace& workspace);

// Step 4 with the loop bound `i + G < n`: every thread skips its last element.
Result skips_last_element(const int* input, std::size_t n, int blocks, int threads,
                          Workspace& workspace);

// Step 5 without the __syncthreads() between tree levels: warps read slots not yet written.
Result missing_syncthreads(const int* input, std::size_t n, int blocks, int threads,
                           Workspace& workspace);

// Step 5 reduced with warp shuffles, counting the warps as blockDim.x / 32: a block of fewer
// than 32 threads (one partial warp) adds nothing and reports 0.
Result drops_partial_warps(const int* input, std::size_t n, int blocks, int threads,
                           Workspace& workspace);

// Step 3 loading each thread's next element before squaring the current one, also in the last
// round: an out-of-bounds read whose value is never used (memcheck sees it, the sum does not).
Result prefetch_past_the_end(const int* input, std::size_t n, int threads, Workspace& workspace);

// Step 5 with the last warp's six levels done the pre-Volta way, `volatile` and no
// __syncwarp(): a race inside the warp (racecheck sees it; the sum usually does not).
Result last_warp_without_syncwarp(const int* input, std::size_t n, int blocks, int threads,
                                  Workspace& workspace);

}  // namespace sum_of_squares::mistakes
