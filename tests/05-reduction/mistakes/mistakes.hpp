// Known-wrong reduction passes; test_mistakes.cpp checks that each is rejected (the last one
// by compute-sanitizer's racecheck where the numbers happen to come out right).
#pragma once

#include <cstddef>

namespace reduction::mistakes {

// Kernel 3 without the __syncthreads() between tree levels.
template <typename T>
void missing_syncthreads_pass(const T* input, T* block_sums, std::size_t n, int block_size);

// Kernel 3 with the stride loop stopping one level early (`s > 1`): the last addition, of
// sdata[1] into sdata[0], never happens.
template <typename T>
void stride_off_by_one_pass(const T* input, T* block_sums, std::size_t n, int block_size);

// Kernel 5 with the classic pre-Volta last warp: `volatile` and no __syncwarp(). A data race on
// Volta and newer, whatever result it happens to give.
template <typename T>
void last_warp_volatile_only_pass(const T* input, T* block_sums, std::size_t n, int block_size);

// Kernel 1 without its __syncthreads(): a race between tree levels. On an H100 the sums came
// out right in every test; racecheck sees it.
template <typename T>
void reduce1_without_syncthreads_pass(const T* input, T* block_sums, std::size_t n,
                                      int block_size);

// Kernel 4 loading the second element unconditionally and keeping it only when it exists:
// the partial last block reads past the end of the input, the sum is right (memcheck sees it).
template <typename T>
void second_load_unguarded_pass(const T* input, T* block_sums, std::size_t n, int block_size);

// Kernel 3 with the barrier inside the if: `if (tid < s) { sdata[tid] += sdata[tid + s];
// __syncthreads(); }`. Threads with tid >= s never reach it: undefined behaviour, which on an
// H100 gave the right sums and passed memcheck, racecheck and synccheck.
// Only the machine code shows it (course::divergent_barrier_problem).
template <typename T>
void reduce3_syncthreads_inside_if_pass(const T* input, T* block_sums, std::size_t n,
                                        int block_size);

// The same mistake written as `if (tid < s) __syncthreads();` after the addition.
template <typename T>
void reduce3_syncthreads_under_if_pass(const T* input, T* block_sums, std::size_t n,
                                       int block_size);

}  // namespace reduction::mistakes
