// Naive matrix multiplication (PMPP 3.4 / 4.x): one thread per element of P.
// Thread (tx, ty) of block (bx, by) computes P[Row][Col], Row = by * blockDim.y + ty,
// Col = bx * blockDim.x + tx, as the inner product of row Row of M and column Col of N.
// Every multiply-add loads two floats from global memory: a compute-to-global-memory-access
// ratio of 1.0 (2 FLOP per 8 bytes), far too little to keep the arithmetic units busy.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "naive_matmul.cuh"

namespace naive_matmul::solution {

namespace {

__global__ void matmul_kernel(const float* M, const float* N, float* P, int Width) {
  // BEGIN SOLUTION
  // TODO (step 1): this thread's element of P is (Row, Col), Row from the y indices and Col
  //       from the x indices. Store there the inner product of row Row of M and column Col of
  //       N (all three row-major). A thread whose element lies outside the matrix neither
  //       reads nor writes.
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  // The grid is rounded up to whole blocks: the extra threads must neither read nor write.
  if (Row < Width && Col < Width) {
    float Pvalue = 0.0f;
    // Neighbouring threads (consecutive tx) read neighbouring N[k * Width + Col]: coalesced.
    // All threads of a warp read the same M[Row * Width + k]: one broadcast.
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
  // END SOLUTION
}

}  // namespace

void launch_kernel(const float* M, const float* N, float* P, int width, LaunchConfig config) {
  check_matrices("launch_kernel", M, N, P, width);
  check_config("launch_kernel", config);
  matmul_kernel<<<config.grid, config.block>>>(M, N, P, width);
  COURSE_CHECK_LAUNCH("matmul_kernel");
}

LaunchConfig launch_config(int width, int block_side) {
  check_width("launch_config", width);
  check_block_side("launch_config", block_side);
  LaunchConfig config;
  // BEGIN SOLUTION
  // TODO (step 2): blocks of block_side x block_side threads (x: columns, y: rows), and
  //       just enough blocks in x and in y to cover all Width columns and rows.
  config.block = dim3(block_side, block_side);
  const unsigned blocks_per_side = course::ceil_div(width, block_side);
  config.grid = dim3(blocks_per_side, blocks_per_side);
  // END SOLUTION
  return config;
}

void matmul(const float* M, const float* N, float* P, int width, int block_side) {
  launch_kernel(M, N, P, width, launch_config(width, block_side));
}

}  // namespace naive_matmul::solution
