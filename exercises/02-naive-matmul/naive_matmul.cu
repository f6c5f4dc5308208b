// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 02.1   (and 02.2: this file's steps, one at a time)
// (or: meson test -C build --suite 02-naive-matmul:exercise --print-errorlogs)
// (generated from solutions/02-naive-matmul/ by python3 -m tools.sync_exercises)
// Naive matrix multiplication (PMPP 3.4 / 4.x): one thread per element of P.
// Thread (tx, ty) of block (bx, by) computes P[Row][Col], Row = by * blockDim.y + ty,
// Col = bx * blockDim.x + tx, as the inner product of row Row of M and column Col of N.
// Every multiply-add loads two floats from global memory: a compute-to-global-memory-access
// ratio of 1.0 (2 FLOP per 8 bytes), far too little to keep the arithmetic units busy.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "naive_matmul.cuh"

namespace naive_matmul::exercise {

namespace {

__global__ void matmul_kernel(const float* M, const float* N, float* P, int Width) {
  // TODO (step 1): this thread's element of P is (Row, Col), Row from the y indices and Col
  //       from the x indices. Store there the inner product of row Row of M and column Col of
  //       N (all three row-major). A thread whose element lies outside the matrix neither
  //       reads nor writes.
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
  // TODO (step 2): blocks of block_side x block_side threads (x: columns, y: rows), and
  //       just enough blocks in x and in y to cover all Width columns and rows.
  return config;
}

void matmul(const float* M, const float* N, float* P, int width, int block_side) {
  launch_kernel(M, N, P, width, launch_config(width, block_side));
}

}  // namespace naive_matmul::exercise
