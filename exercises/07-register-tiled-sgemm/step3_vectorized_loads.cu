// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 07.3
// (or: meson test -C build --suite 07-register-tiled-sgemm:exercise --print-errorlogs)
// (generated from solutions/07-register-tiled-sgemm/ by python3 -m tools.sync_exercises)
// Step 3: 16-byte loads, and M's tile stored transposed.
// Changed from step 2: global loads are float4 (one instruction for four floats, and four
// times fewer load instructions to issue), and M's tile is stored TRANSPOSED in shared memory,
// Mtile_t[dot][row]. The 8 values of M a thread needs for one `dot` are then consecutive, so it
// reads them as two float4 instead of eight floats; N's 8 values already were consecutive.
// As written, 4 shared-memory load instructions per 64 multiply-adds instead of 16; but the
// compiler already merged step 2's reads into 16-byte loads (the profiler counts 2 per 32 in
// both steps), so the gain is in global memory: a quarter of the load instructions.
// The vector loads need rows that start on 16 bytes (k and n multiples of 4): otherwise the
// kernel is instantiated with VECTOR = false and loads one float at a time (ready-made here).
#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"
#include "register_tiled_sgemm_device.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = BM * BN / (TM * TN);  // 256
constexpr int S = kTransposedStride<BM>;       // BM + 4: see register_tiled_sgemm_device.cuh

template <bool VECTOR>
__global__ void __launch_bounds__(kThreads)
    vectorized_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  __shared__ __align__(16) float Mtile_t[BK * S];   // transposed: Mtile_t[dot * S + row]
  __shared__ __align__(16) float Ntile[BK * BN];    // as in step 2: Ntile[dot * BN + col]
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
  float acc[TM][TN] = {};
  float m_values[TM], n_values[TN];
  for (int tile = 0; tile < k; tile += BK) {
    if constexpr (VECTOR) {
      // TODO: (1) fill Mtile_t with M's 128 x 8 tile (zeros where a row is past m or a column
      //           past k), each thread moving one 16-byte piece of M, laid out so that (3) can get
      //           a thread's TM values of one tile column with 16-byte reads (S = BM + 4 is the row
      //           stride there: the padding keeps the stores of a column of threads out of one
      //           bank). Which layout that is: ./course hint 07.3.
      //       (2) fill Ntile with N's 8 x 128 tile (zeros past k or n), each thread moving one
      //           16-byte piece, in N's own layout.
    } else {
      load_m_tile_transposed<BM, BK, kThreads, false>(M, Mtile_t, block_row, tile, m, k);
      load_n_tile<BK, BN, kThreads, false>(N, Ntile, tile, block_col, k, n);
    }
    __syncthreads();
    // TODO: (3) step 2's inner loop, with m_values and n_values each filled by 16-byte reads of
    //           the tiles instead of one float at a time.
    __syncthreads();
  }
  store_results<TM, TN, VECTOR>(P, acc, 0, 0, block_row + thread_row * TM,
                                block_col + thread_col * TN, m, n, n);
}

}  // namespace

void step3_vectorized_loads(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step3_vectorized_loads", M, N, P, m, k, n);
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  with_vector_choice(M, N, P, k, n, [&](auto vector) {
    vectorized_kernel<decltype(vector)::value><<<grid, kThreads>>>(M, N, P, m, k, n);
  });
  COURSE_CHECK_LAUNCH("vectorized_kernel");
}

KernelResources step3_resources(bool vector) {
  return resources_of(vector ? reinterpret_cast<const void*>(vectorized_kernel<true>)
                             : reinterpret_cast<const void*>(vectorized_kernel<false>));
}

}  // namespace register_tiled_sgemm::exercise
