// Chapter 07, register-tiled SGEMM: from chapter 04's ~18% of cuBLAS toward cuBLAS, by making every
// value loaded from shared memory feed more multiply-adds. The API that the exercise and the
// solution (and the known mistakes planted into it) implement. Plain C++ apart from the CUDA
// runtime.
//
// P = M x N in FP32, all row-major device matrices: M is m x k, N is k x n, P is m x n (the
// course's convention since chapter 02). Every step takes any m, k, n >= 1 (chapter 04's
// boundary checks carried over). The 16-byte loads of steps 3-5 need rows that start on 16
// bytes: when k or n is not a multiple of 4, or a pointer is not 16-byte aligned, those steps
// load one float at a time instead (same result, a little slower).
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "course/device_info.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace register_tiled_sgemm {

// The shared argument checks (std::invalid_argument with what to pass instead): sizes of at
// least 1, every matrix's element count below 2^31 (the kernels index with int), at most
// kMaxRows rows, non-null pointers.
// Every kernel's grid has one row of blocks per BM rows of P (BM >= 64 in every step) and a
// grid has at most 65535 rows of blocks: m up to 65535 x 64.
inline constexpr int kMaxRows = course::kMaxGridDimY * 64;
void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n);

// True when the 16-byte loads and stores of steps 3-5 apply: k and n multiples of 4 and the
// three matrices 16-byte aligned.
bool vector_loads_apply(const float* M, const float* N, const float* P, int k, int n);

// Step 4's tile parameters: a block computes block_m x block_n of P, walking k in slices of
// block_k; each warp owns warp_m x warp_n of that, and each thread thread_m x thread_n results
// per warp sub-tile. Only the configurations in kWarpTilings are compiled.
struct WarpTiling {
  int block_m, block_n, block_k;
  int warp_m, warp_n, warp_n_iterations;
  int thread_m, thread_n;
  int threads;
  std::string text() const;  // "128x128x16, warp 64x64, thread 8x4, 128 threads"
  bool operator==(const WarpTiling& other) const;
};
inline constexpr WarpTiling kLargeTiles{128, 128, 16, 64, 64, 4, 8, 4, 128};
inline constexpr WarpTiling kWideTiles{128, 128, 16, 64, 32, 2, 8, 4, 256};
inline constexpr WarpTiling kSmallTiles{64, 64, 16, 32, 32, 2, 4, 4, 128};
inline constexpr WarpTiling kWarpTilings[] = {kLargeTiles, kWideTiles, kSmallTiles};
// The tiling step 4 uses for a shape when none is named: the 256-thread tiles, unless they
// would leave the GPU with fewer than two blocks per multiprocessor to run.
WarpTiling choose_warp_tiling(int m, int n, int multiprocessors);
// Step 5 compiles a third tiling, for shapes with fewer 128 x 128 tiles than the GPU has
// multiprocessors: 96 x 112 tiles of 7 warps, each warp a 96 x 16 column of the tile, each lane
// 12 x 4 results. 4096 x 333 has 96 tiles of 128 x 128 for 132 multiprocessors, but 129 of
// these (and 3 x 112 = 336 columns waste 1% of the work, 3 x 128 = 384 waste 13%).
inline constexpr WarpTiling kNarrowTiles{96, 112, 16, 96, 16, 1, 12, 4, 224};
inline constexpr WarpTiling kDoubleBufferedTilings[] = {kLargeTiles, kWideTiles, kNarrowTiles};
// The tiling step 5 uses for a shape when none is named: the 256-thread 128 x 128 tiles, unless
// there are fewer of them than multiprocessors (some would sit idle); then the 96 x 112 ones.
WarpTiling choose_double_buffered_tiling(int m, int n, int multiprocessors);
// Step 5 splits k (split-K) when the output tiles fill the GPU's waves badly: `tiles` blocks
// times the splits should fill whole waves of `resident` blocks (what the GPU runs at once),
// each split keeping at least 128 of k. Returns the fewest splits, 1 to 8, whose last wave is
// within 5% as full as the best's (every split costs a zeroing of P and an atomic per result).
// Never splits when there are fewer tiles than `multiprocessors`: a second block per
// multiprocessor adds less than the zeroing and the atomics cost (measured on the H100).
int choose_k_splits(long long tiles, int k, int resident, int multiprocessors);
using course::multiprocessor_count;  // of the current GPU (course/device_info.hpp)

// Registers per thread and bytes of local memory (spills and stack) of a step's kernel, read
// with cudaFuncGetAttributes: the README's table, and the test that no step spills.
using course::KernelResources;
using course::resources_of;

#define REGISTER_TILED_SGEMM_DECLARE_STEPS                                                        \
  /* Step 1: 1D block tiling, each thread computes TM = 8 results of one column. */               \
  void step1_1d_blocktiling(const float* M, const float* N, float* P, int m, int k, int n);      \
  /* Step 2: 2D block tiling, each thread computes an 8 x 8 register tile. */                      \
  void step2_2d_blocktiling(const float* M, const float* N, float* P, int m, int k, int n);      \
  /* Step 3: 16-byte loads; M's tile stored transposed so the inner loop reads vectors. */         \
  void step3_vectorized_loads(const float* M, const float* N, float* P, int m, int k, int n);    \
  /* Step 4: warptiling (block, warp, thread); tiling as chosen by choose_warp_tiling(). */        \
  void step4_warptiling(const float* M, const float* N, float* P, int m, int k, int n);          \
  void step4_warptiling(const float* M, const float* N, float* P, int m, int k, int n,           \
                        const WarpTiling& tiling);                                               \
  /* Step 5: double buffering: the next tiles load while the current ones are used; a tiling */  \
  /* of kDoubleBufferedTilings, k split over k_splits blocks (both chosen by shape if not given). */\
  void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n);    \
  void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n,     \
                              const WarpTiling& tiling, int k_splits);                           \
  int step5_default_splits(int m, int k, int n, const WarpTiling& tiling); /* chosen by shape */ \
  /* The registers and local memory of each step's kernel, of each compiled variant: 16-byte */ \
  /* loads or not (vector), whole k or split (split_k), 16-byte stores or not (vector_store). */ \
  KernelResources step1_resources();                                                              \
  KernelResources step2_resources();                                                              \
  KernelResources step3_resources(bool vector = true);                                            \
  KernelResources step4_resources(const WarpTiling& tiling, bool vector = true);                 \
  KernelResources step5_resources(const WarpTiling& tiling, bool split_k = false,                \
                                  bool vector_store = true);

namespace solution {
REGISTER_TILED_SGEMM_DECLARE_STEPS
}  // namespace solution

namespace exercise {
REGISTER_TILED_SGEMM_DECLARE_STEPS
}  // namespace exercise


using Sgemm = void (*)(const float* M, const float* N, float* P, int m, int k, int n);
inline Sgemm solution_step(int number) {
  constexpr Sgemm steps[] = {solution::step1_1d_blocktiling, solution::step2_2d_blocktiling,
                             solution::step3_vectorized_loads, solution::step4_warptiling,
                             solution::step5_double_buffering};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepCount, "a function per step");
  return steps[number - 1];
}
inline KernelResources solution_resources(int number) {
  static_assert(kStepCount == 5, "a case per step of steps.json");
  switch (number) {
    case 1: return solution::step1_resources();
    case 2: return solution::step2_resources();
    case 3: return solution::step3_resources();
    case 4: return solution::step4_resources(kWideTiles);  // the default for large shapes
    default: return solution::step5_resources(kWideTiles);
  }
}
inline Sgemm exercise_step(int number) {
  constexpr Sgemm steps[] = {exercise::step1_1d_blocktiling, exercise::step2_2d_blocktiling,
                             exercise::step3_vectorized_loads, exercise::step4_warptiling,
                             exercise::step5_double_buffering};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepCount, "a function per step");
  return steps[number - 1];
}

}  // namespace register_tiled_sgemm
