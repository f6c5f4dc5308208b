// Chapter 08, tensor-core GEMM: from chapter 07's CUDA-core SGEMM to the tensor cores, with FP16
// inputs and FP32 accumulation, in five steps to cuBLAS. The API that the exercise and the solution
// (and the known mistakes planted into it) implement. Plain C++ apart from the CUDA runtime and the
// FP16 type.
//
// C = A x B: A is m x k, B is k x n, C is m x n, all row-major device matrices; A and B hold
// __half (FP16), C float (FP32). These are the names of the PTX manual and of cuBLAS, which
// this chapter reads side by side (the course's P = M x N until chapter 07).
// Any m, n >= 1. k must be a multiple of 8 (at least 8): every row of A then starts on 16
// bytes, as the 16-byte copies and the Hopper tensor-memory accelerator require. Pad A's
// columns and B's rows with zeros to the next multiple of 8 if yours is not. A and B must
// start on 16 bytes (cudaMalloc gives 256); C on 4.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "course/watchdog.hpp"
#include "tensor_core_gemm_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace tensor_core_gemm {

// Steps 1-5 put one row of blocks per 128 rows of C in gridDim.y, which holds 65535; step 6
// (a one-dimensional grid) keeps the same limit, so that every step takes the same arguments.
inline constexpr int kMaxRows = course::kMaxGridDimY * 128;

// The shared argument checks (std::invalid_argument with what to pass instead): m, n >= 1;
// k >= 8 and a multiple of 8; m <= kMaxRows; every matrix's element count below 2^31; no null
// pointer; A and B 16-byte aligned, C 4-byte aligned.
void check_arguments(const char* function, const __half* A, const __half* B, const float* C,
                     int m, int k, int n);

// "" when step `step` can run on the current GPU; otherwise why not, with the compute
// capability it needs ("step 2 needs compute capability 8.0 or newer (mma.sync.m16n8k16,
// cp.async); this GPU, NVIDIA T4, is 7.5"). Tests and benchmark rows SKIP with this text.
std::string why_step_cannot_run(int step);
// True when the GPU could run step `step` but this build's code for it does not run there (a
// build for an older architecture than the step needs, e.g. -Dgpu_arch=sm_75 on a 9.0 GPU; or
// a 9.0 GPU and a build without sm_90a code): a build to redo, not a GPU to change.
bool step_needs_a_rebuild(int step);

// Throws course::StepNeedsAnotherGpu with why_step_cannot_run's text on a GPU that cannot run it.
using course::StepNeedsAnotherGpu;
void require_gpu_for_step(int step);

// The barrier waits of steps 4-6 give up after kWatchdogSeconds (course/watchdog.hpp: a
// barrier that never completes would freeze the GPU): the kernel stops with a trap, which leaves
// this process's CUDA context unusable. This says what the wait was for ("block (3, 1), warp 4
// waited on stage 2 for parity 1"), or "" when no wait gave up.
using course::kWatchdogSeconds;
std::string barrier_timeout_report();

// Step 3's ring of shared-memory stages, 48 KiB each (A's 128 x 64 and B's 64 x 256 halves):
// as many as fit, up to 4, in the shared memory one block may ask for on the GPU
// (cudaDevAttrMaxSharedMemoryPerBlockOptin): 4 (192 KiB) on compute capability 9.0 and 10.0,
// 3 (144 KiB) on 8.0 (163 KiB), 2 (96 KiB) on 8.6, 8.9 and 12.0 (99 KiB); 0 below 96 KiB.
inline constexpr int kStep3StageBytes = (128 * 64 + 64 * 256) * 2;
int step3_stages_for(int shared_bytes_per_block);

// The ring of steps 4-6: kRingStages stages of the same 48 KiB slices, and 1 KiB to start them
// on 1024 bytes: 193 KiB of shared memory per block, which compute capability 9.0 and 10.0
// allow (227 KiB) and 12.0 does not (99 KiB).
inline constexpr int kRingStages = 4;
inline constexpr int kRingSharedBytes = kRingStages * kStep3StageBytes + 1024;
// For the current GPU (or what detail::override_step3_stages set).
int step3_stages();

// Step 6's persistent blocks: one per SM of the current GPU (or what
// detail::override_step6_blocks set); fewer when C has fewer tiles.
int step6_blocks();

// The launches of steps 2 and 5 over tiles_m x tiles_n block tiles of C: one grid of them all;
// or, after detail::override_one_launch_per_tile(1), one launch of one block per tile, the last
// (bottom right) first. Launch `i` (0 <= i < count()) runs `grid()` from tile (row(i), col(i)).
struct TileLaunches {
  int tiles_m = 1, tiles_n = 1;
  bool one_per_tile = false;
  int count() const { return one_per_tile ? tiles_m * tiles_n : 1; }
  dim3 grid() const { return one_per_tile ? dim3(1, 1) : dim3(tiles_n, tiles_m); }
  int row(int i) const { return one_per_tile ? (count() - 1 - i) / tiles_n : 0; }
  int col(int i) const { return one_per_tile ? (count() - 1 - i) % tiles_n : 0; }
};
TileLaunches tile_launches(int tiles_m, int tiles_n);

namespace detail {
// True when the sm_90a code of steps 5 and 6 is what runs on the current GPU (a probe kernel
// compiled like them says so): compute capability 9.0 and a build that holds sm_90a code.
bool sm90a_code_runs();
// Tests: step 3 runs with a ring of `stages` (2 up to this GPU's step3_stages()) until this is
// called again with 0, which goes back to the GPU's own; std::invalid_argument otherwise (before
// asking the GPU when `stages` is outside 2-4).
void override_step3_stages(int stages);
// Tests: step 6 runs with `blocks` persistent blocks (so few that each takes many tiles, even
// of a small C) until this is called again with 0, which goes back to one per SM;
// std::invalid_argument below 0.
void override_step6_blocks(int blocks);
// Tests: steps 2 and 5 launch each block tile alone, the last first (tile_launches), until this
// is called again with 0: the tiles right of a block and below it are then final before it
// runs, and whatever it stores past its own columns stays there.
void override_one_launch_per_tile(int on);
}  // namespace detail

// Steps 2-6 copy B 16 bytes at a time: its rows must start on 16 bytes, so n must be a
// multiple of 8. When it is not, the launchers first copy B into rows of round_up(n, 64)
// halves (128 bytes: whole lines), zeros after column n (that copy is part of the step's time);
// this returns B itself or that copy (a buffer kept for the next call, on the default stream).
// (64 is a multiple of 8: the name says what every step needs.)
const __half* b_with_rows_of_multiple_of_8(const __half* B, int k, int n, int* ldb);

// Registers per thread, local memory (spills, stack) and static shared memory of a kernel,
// read with cudaFuncGetAttributes: the README's table, and the test that no step spills.
using course::KernelResources;
using course::resources_of;

#define TENSOR_CORE_GEMM_DECLARE_STEPS                                                            \
  /* Step 1: WMMA, 16 x 16 x 16 fragments whose layout the API hides (CC 7.0+). */                \
  void step1_wmma(const __half* A, const __half* B, float* C, int m, int k, int n);              \
  /* Step 2: mma.sync.m16n8k16 fed by ldmatrix; the fragments' layout is yours (CC 8.0+). */     \
  void step2_mma_ldmatrix(const __half* A, const __half* B, float* C, int m, int k, int n);      \
  /* Step 3: a 4-stage cp.async pipeline into XOR-swizzled tiles, 128 x 256 blocks (CC 8.0+). */ \
  void step3_multistage_swizzle(const __half* A, const __half* B, float* C, int m, int k, int n);\
  /* Step 4: TMA copies through a ring of mbarrier-guarded stages, a producer warp (CC 9.0+). */ \
  void step4_tma_ring(const __half* A, const __half* B, float* C, int m, int k, int n);          \
  /* Step 5: Hopper's wgmma from shared-memory descriptors, warpgroups (sm_90a). */               \
  void step5_wgmma(const __half* A, const __half* B, float* C, int m, int k, int n);             \
  /* Step 6: step 5 with persistent blocks, a wgmma group in flight, whole-line stores. */       \
  void step6_persistent_tiles(const __half* A, const __half* B, float* C, int m, int k, int n);  \
  /* Each step's kernel's registers and local memory (zeros where not compiled). */              \
  KernelResources step1_resources();                                                              \
  KernelResources step2_resources();                                                              \
  KernelResources step3_resources();                                                              \
  KernelResources step4_resources();                                                              \
  KernelResources step5_resources();                                                              \
  KernelResources step6_resources();

namespace solution {
TENSOR_CORE_GEMM_DECLARE_STEPS
}  // namespace solution

namespace exercise {
TENSOR_CORE_GEMM_DECLARE_STEPS
}  // namespace exercise


using Gemm = void (*)(const __half* A, const __half* B, float* C, int m, int k, int n);
inline Gemm solution_step(int number) {
  constexpr Gemm steps[] = {solution::step1_wmma, solution::step2_mma_ldmatrix,
                            solution::step3_multistage_swizzle, solution::step4_tma_ring,
                            solution::step5_wgmma, solution::step6_persistent_tiles};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepCount, "a function per step");
  return steps[number - 1];
}
inline Gemm exercise_step(int number) {
  constexpr Gemm steps[] = {exercise::step1_wmma, exercise::step2_mma_ldmatrix,
                            exercise::step3_multistage_swizzle, exercise::step4_tma_ring,
                            exercise::step5_wgmma, exercise::step6_persistent_tiles};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepCount, "a function per step");
  return steps[number - 1];
}
inline KernelResources solution_resources(int number) {
  static_assert(kStepCount == 6, "a case per step of steps.json");
  switch (number) {
    case 1: return solution::step1_resources();
    case 2: return solution::step2_resources();
    case 3: return solution::step3_resources();
    case 4: return solution::step4_resources();
    case 5: return solution::step5_resources();
    default: return solution::step6_resources();
  }
}

}  // namespace tensor_core_gemm
