// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 07.2
// (or: meson test -C build --suite 07-register-tiled-sgemm:exercise --print-errorlogs)
// (generated from solutions/07-register-tiled-sgemm/ by python3 -m tools.sync_exercises)
// Step 2: 2D block tiling.
// Changed from step 1: each thread computes an 8 x 8 tile of P in registers, not a column of 8.
// In the inner loop it loads TM = 8 values of M's tile and TN = 8 of N's into registers and
// does all 64 products between them: as written, 16 shared loads for 64 multiply-adds (step 1:
// 9 for 8); the compiler merges them into 16-byte loads, and the profiler counts 2 per 32.
// The block computes 128 x 128 of P with 256 threads; every value it brings from global memory
// is used 128 times instead of 64.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = BM * BN / (TM * TN);  // 256
constexpr int kMRowsPerRound = kThreads / BK;  // rows of M's tile the block loads at once
constexpr int kNRowsPerRound = kThreads / BN;

__global__ void __launch_bounds__(kThreads)
    blocktiling_2d_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  __shared__ float Mtile[BM * BK];
  __shared__ float Ntile[BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int thread_col = threadIdx.x % (BN / TN);  // its TN columns start at thread_col * TN
  const int thread_row = threadIdx.x / (BN / TN);  // its TM rows start at thread_row * TM
  const int m_row = threadIdx.x / BK, m_col = threadIdx.x % BK;
  const int n_row = threadIdx.x / BN, n_col = threadIdx.x % BN;
  float acc[TM][TN] = {};
  float m_values[TM], n_values[TN];
  for (int tile = 0; tile < k; tile += BK) {
#pragma unroll
    for (int r = 0; r < BM; r += kMRowsPerRound) {
      const int row = block_row + m_row + r, col = tile + m_col;
      Mtile[(m_row + r) * BK + m_col] = row < m && col < k ? M[row * k + col] : 0.0f;
    }
#pragma unroll
    for (int r = 0; r < BK; r += kNRowsPerRound) {
      const int row = tile + n_row + r, col = block_col + n_col;
      Ntile[(n_row + r) * BN + n_col] = row < k && col < n ? N[row * n + col] : 0.0f;
    }
    __syncthreads();
    // TODO: add to acc[i][j] the BK products of M's tile row thread_row * TM + i with N's tile
    //       column thread_col * TN + j, for all TM x TN results of this thread, reading each shared
    //       value a thread needs for one dot step only once (m_values and n_values are there for
    //       them).
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int row = block_row + thread_row * TM + i, col = block_col + thread_col * TN + j;
      if (row < m && col < n) P[row * n + col] = acc[i][j];
    }
  }
}

}  // namespace

void step2_2d_blocktiling(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step2_2d_blocktiling", M, N, P, m, k, n);
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  blocktiling_2d_kernel<<<grid, kThreads>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("blocktiling_2d_kernel");
}

KernelResources step2_resources() {
  return resources_of(reinterpret_cast<const void*>(blocktiling_2d_kernel));
}

}  // namespace register_tiled_sgemm::exercise
