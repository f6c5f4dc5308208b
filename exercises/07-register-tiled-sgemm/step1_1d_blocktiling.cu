// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 07.1
// (or: meson test -C build --suite 07-register-tiled-sgemm:exercise --print-errorlogs)
// (generated from solutions/07-register-tiled-sgemm/ by python3 -m tools.sync_exercises)
// Step 1: 1D block tiling.
// Chapter 04's kernel loads two shared-memory values per multiply-add (Mds[ty][k] and
// Nds[k][tx]): shared memory, not arithmetic, sets its speed. Here a block of 512 threads
// computes a 64 x 64 tile of P and each thread a column of TM = 8 results of it, kept in
// registers. In the inner loop the thread loads Ntile's value once and uses it for all 8
// results: as written, 9 shared loads for 8 multiply-adds instead of 16. The compiler merges a
// row's 8 consecutive Mtile reads into two 16-byte loads: the profiler counts 12 per 32.
// The loads of the tiles keep chapter 04's boundary checks (0.0f outside the matrices); the
// store skips what lies outside P.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
constexpr int kThreads = BM * BN / TM;  // 512: one thread per TM results
static_assert(BM * BK == kThreads && BK * BN == kThreads, "one element of each tile per thread");

__global__ void __launch_bounds__(kThreads)
    blocktiling_1d_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  __shared__ float Mtile[BM * BK];  // row-major BM x BK
  __shared__ float Ntile[BK * BN];  // row-major BK x BN
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int thread_col = threadIdx.x % BN;  // this thread's column of the block's tile
  const int thread_row = threadIdx.x / BN;  // its TM rows start at thread_row * TM
  const int m_row = threadIdx.x / BK, m_col = threadIdx.x % BK;  // the element it loads of M
  const int n_row = threadIdx.x / BN, n_col = threadIdx.x % BN;  // ... and of N
  float acc[TM] = {};
  for (int tile = 0; tile < k; tile += BK) {
    const int row = block_row + m_row, col = tile + m_col;
    Mtile[m_row * BK + m_col] = row < m && col < k ? M[row * k + col] : 0.0f;
    const int n_r = tile + n_row, n_c = block_col + n_col;
    Ntile[n_row * BN + n_col] = n_r < k && n_c < n ? N[n_r * n + n_c] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them
    // TODO: add to acc[r] (r = 0 .. TM - 1) the BK products of M's tile row thread_row * TM + r
    //       with N's tile column thread_col, with as few shared-memory reads per multiply-add as
    //       you can (./course hint 07.1).
    __syncthreads();  // everyone is done with the tiles before the next ones overwrite them
  }
#pragma unroll
  for (int r = 0; r < TM; ++r) {
    const int row = block_row + thread_row * TM + r, col = block_col + thread_col;
    if (row < m && col < n) P[row * n + col] = acc[r];
  }
}

}  // namespace

void step1_1d_blocktiling(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step1_1d_blocktiling", M, N, P, m, k, n);
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  blocktiling_1d_kernel<<<grid, kThreads>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("blocktiling_1d_kernel");
}

KernelResources step1_resources() {
  return resources_of(reinterpret_cast<const void*>(blocktiling_1d_kernel));
}

}  // namespace register_tiled_sgemm::exercise
