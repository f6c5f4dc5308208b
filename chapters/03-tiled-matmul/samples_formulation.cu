// The same tiled algorithm in the formulation of the CUDA samples' matrixMul, for the README's
// comparison and the benchmark's "cuda-samples" row: instead of a phase counter ph, the block
// walks A's row of tiles with a running index a (from aBegin to aEnd, step aStep = one tile
// to the right) and B's column of tiles with b (step bStep = one tile down). Here A = M,
// B = N, C = P, and wA = wB = Width.
#include "course/errors.hpp"
#include "samples_formulation.cuh"

namespace tiled_matmul::samples {

namespace {

template <int BLOCK_SIZE>
__global__ void matrix_mul_samples_style(float* C, const float* A, const float* B, int wA,
                                         int wB) {
  const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int aBegin = wA * BLOCK_SIZE * by;  // first tile of A's block row
  const int aEnd = aBegin + wA - 1;         // last element of that row of tiles
  const int aStep = BLOCK_SIZE;             // next tile of A: to the right
  const int bBegin = BLOCK_SIZE * bx;       // first tile of B's block column
  const int bStep = BLOCK_SIZE * wB;        // next tile of B: one tile down
  float Csub = 0.0f;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub;
}

}  // namespace

void matmul(const float* M, const float* N, float* P, int width) {
  check_arguments("samples::matmul", M, N, P, width, 32);
  const dim3 block(32, 32), grid(width / 32, width / 32);
  matrix_mul_samples_style<32><<<grid, block>>>(P, M, N, width, width);
  COURSE_CHECK_LAUNCH("matrix_mul_samples_style");
}

}  // namespace tiled_matmul::samples
