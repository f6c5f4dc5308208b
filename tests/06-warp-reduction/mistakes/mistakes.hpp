// Known-wrong variants of chapter 06's steps, each a classic bug. test_mistakes.cpp checks that
// each is rejected: by the numbers (the test puts NaN or 0x5EADBEEF around the input), by a
// compute-sanitizer tool where the numbers come out right, or by the machine code (the fence).
#pragma once

#include "warp_reduction.cuh"

namespace warp_reduction::mistakes {

// Step 1 with the last warp of the classic slides: a `volatile` pointer and no __syncwarp().
// Volta and newer do not run a warp in lockstep: a data race, whatever sum it gives.
template <typename T>
T last_warp_without_syncwarp(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

// Step 3 whose last stage lets only the lanes that hold a warp's total take part (lane <
// BLOCK / 32), with a mask of just those lanes: at offset 16, lane 0 reads lane 16, which is
// neither in the mask nor calling, and gets whatever that lane's register holds.
template <typename T>
T partial_mask_shuffle(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

// Step 4 with the vector count rounded up and no tail: the last vector reads past the end of
// the input and adds what it finds there.
template <typename T>
T vector_load_past_the_tail(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

// Step 4 reading the last, partial vector whole but adding only its elements below n: the sum
// is right, the 16-byte load still reads past the end of the input.
template <typename T>
T masked_vector_load_past_the_tail(const T* input, std::size_t n, int block_size,
                                   Workspace<T>& ws);

// Step 5 without the __threadfence() between storing the block total and taking the ticket.
template <typename T>
T missing_threadfence(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

// Step 5 with __threadfence_block() where __threadfence() belongs: it orders the block total
// for this block's own threads only, not for the block that draws the last ticket.
template <typename T>
T block_scope_fence(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

}  // namespace warp_reduction::mistakes
