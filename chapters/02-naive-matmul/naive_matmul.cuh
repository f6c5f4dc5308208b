// Chapter 02, naive matrix multiplication: the API that the exercise and the solution (and the
// known mistakes planted into it) implement, and the argument checks they share.
//
// P = M x N for square Width x Width row-major float matrices in GPU memory, one thread per
// element of P (PMPP's first matmul kernel). Plain C++: tests and benchmarks include it from
// .cpp files.
#pragma once

#include <cuda_runtime.h>

#include "naive_matmul_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace naive_matmul {

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

// The kernel indexes with int, as the PMPP formulation does: Row * Width + k must fit, so
// Width * Width must stay below 2^31.
constexpr int kMaxWidth = 46340;

// Shared argument checks; each throws std::invalid_argument naming `function` and saying what
// to pass instead.
void check_width(const char* function, int width);
void check_matrices(const char* function, const float* M, const float* N, const float* P,
                    int width);
void check_block_side(const char* function, int block_side);
void check_config(const char* function, const LaunchConfig& config);

#define NAIVE_MATMUL_DECLARE_STEPS                                                           \
  /* Step 1: launches the kernel with the configuration given (tests pass a correct one). */  \
  void launch_kernel(const float* M, const float* N, float* P, int width,                     \
                     LaunchConfig config);                                                    \
  /* Step 2: the grid and the block_side x block_side blocks that cover Width x Width. */     \
  LaunchConfig launch_config(int width, int block_side);                                      \
  /* Steps 1 and 2 together: P = M x N with block_side x block_side threads per block. */     \
  void matmul(const float* M, const float* N, float* P, int width, int block_side);

namespace solution {
NAIVE_MATMUL_DECLARE_STEPS
}  // namespace solution

namespace exercise {
NAIVE_MATMUL_DECLARE_STEPS
}  // namespace exercise

}  // namespace naive_matmul
