// The classic mistakes of the naive matmul kernel, one kernel each (see mistakes.hpp).
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "naive_matmul.cuh"

namespace naive_matmul::mistakes {

namespace {

__global__ void transposed_store_kernel(const float* M, const float* N, float* P, int Width) {
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Width && Col < Width) {
    float Pvalue = 0.0f;
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Col * Width + Row] = Pvalue;  // BUG: Row and Col swapped
  }
}

__global__ void missing_bounds_check_kernel(const float* M, const float* N, float* P, int Width) {
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  // BUG: no bounds check
  float Pvalue = 0.0f;
  for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
  P[Row * Width + Col] = Pvalue;
}

__global__ void n_indexed_by_row_kernel(const float* M, const float* N, float* P, int Width) {
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Width && Col < Width) {
    float Pvalue = 0.0f;
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Row];  // BUG
    P[Row * Width + Col] = Pvalue;
  }
}

__global__ void only_the_store_guarded_kernel(const float* M, const float* N, float* P, int Width) {
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  float Pvalue = 0.0f;  // BUG: computed by every thread, also those outside the matrix
  for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
  if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;
}

__global__ void row_shared_without_syncwarp_kernel(const float* M, const float* N, float* P,
                                                   int Width) {
  __shared__ int warp_row[32];  // one slot per warp of the block (at most 1024 threads)
  const int thread = threadIdx.y * blockDim.x + threadIdx.x;
  if (thread % 32 == 0) warp_row[thread / 32] = blockIdx.y * blockDim.y + threadIdx.y;
  // BUG: no __syncwarp(): lanes 1-31 read the slot their lane 0 writes. (And with blocks
  // narrower than 32 a warp spans several rows: the slot gives them all lane 0's row.)
  const int Row = blockDim.x >= 32 ? warp_row[thread / 32] : blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Width && Col < Width) {
    float Pvalue = 0.0f;
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}

template <typename Kernel>
void launch(Kernel kernel, const float* M, const float* N, float* P, int width, int block_side,
            const char* name) {
  const LaunchConfig config = solution::launch_config(width, block_side);
  kernel<<<config.grid, config.block>>>(M, N, P, width);
  COURSE_CHECK_LAUNCH(name);
}

}  // namespace

void transposed_store(const float* M, const float* N, float* P, int width, int block_side) {
  launch(transposed_store_kernel, M, N, P, width, block_side, "transposed_store_kernel");
}

void missing_bounds_check(const float* M, const float* N, float* P, int width, int block_side) {
  launch(missing_bounds_check_kernel, M, N, P, width, block_side, "missing_bounds_check_kernel");
}

void n_indexed_by_row(const float* M, const float* N, float* P, int width, int block_side) {
  launch(n_indexed_by_row_kernel, M, N, P, width, block_side, "n_indexed_by_row_kernel");
}

void only_the_store_guarded(const float* M, const float* N, float* P, int width, int block_side) {
  launch(only_the_store_guarded_kernel, M, N, P, width, block_side, "only_the_store_guarded_kernel");
}

void row_shared_without_syncwarp(const float* M, const float* N, float* P, int width,
                                 int block_side) {
  launch(row_shared_without_syncwarp_kernel, M, N, P, width, block_side,
         "row_shared_without_syncwarp_kernel");
}

}  // namespace naive_matmul::mistakes
