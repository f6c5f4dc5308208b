// The classic mistakes of chapter 07 (see mistakes.hpp): steps 2 and 3 with one change each,
// marked BUG.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "mistakes.hpp"
#include "register_tiled_sgemm.cuh"
#include "register_tiled_sgemm_device.cuh"

namespace register_tiled_sgemm::mistakes {

namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = BM * BN / (TM * TN);

enum class Bug { no_barrier_after_load, no_barrier_after_compute, index_off_by_one };

// Step 2's kernel (scalar loads), with BUG.
template <Bug BUG>
__global__ void __launch_bounds__(kThreads)
    step2_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  __shared__ float Mtile[BM * BK + 1];  // + 1: the off-by-one read stays inside the array
  __shared__ float Ntile[BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
  float acc[TM][TN] = {};
  for (int tile = 0; tile < k; tile += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += kThreads) {
      const int row = block_row + e / BK, col = tile + e % BK;
      Mtile[e] = row < m && col < k ? M[row * k + col] : 0.0f;
    }
    for (int e = threadIdx.x; e < BK * BN; e += kThreads) {
      const int row = tile + e / BN, col = block_col + e % BN;
      Ntile[e] = row < k && col < n ? N[row * n + col] : 0.0f;
    }
    if (BUG != Bug::no_barrier_after_load) __syncthreads();  // BUG when missing
    for (int dot = 0; dot < BK; ++dot) {
      const int m_column = BUG == Bug::index_off_by_one ? dot + 1 : dot;  // BUG: dot + 1
      for (int i = 0; i < TM; ++i) {
        const float m_value = Mtile[(thread_row * TM + i) * BK + m_column];
        for (int j = 0; j < TN; ++j) acc[i][j] += m_value * Ntile[dot * BN + thread_col * TN + j];
      }
    }
    if (BUG != Bug::no_barrier_after_compute) __syncthreads();  // BUG when missing
  }
  for (int i = 0; i < TM; ++i) {
    for (int j = 0; j < TN; ++j) {
      const int row = block_row + thread_row * TM + i, col = block_col + thread_col * TN + j;
      if (row < m && col < n) P[row * n + col] = acc[i][j];
    }
  }
}

// Step 3's kernel on the 16-byte path, with one of its load guards left out.
template <bool CHECK_M_ROW, bool CHECK_N_ROW>
__global__ void __launch_bounds__(kThreads)
    step3_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  __shared__ __align__(16) float Mtile_t[BK * BM];
  __shared__ __align__(16) float Ntile[BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
  float acc[TM][TN] = {};
  for (int tile = 0; tile < k; tile += BK) {
    const int c = (threadIdx.x % (BK / 4)) * 4, r = threadIdx.x / (BK / 4);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if ((!CHECK_M_ROW || block_row + r < m) && tile + c < k) {  // BUG when the row is not checked
      v = *reinterpret_cast<const float4*>(M + (block_row + r) * k + tile + c);
    }
    Mtile_t[(c + 0) * BM + r] = v.x;
    Mtile_t[(c + 1) * BM + r] = v.y;
    Mtile_t[(c + 2) * BM + r] = v.z;
    Mtile_t[(c + 3) * BM + r] = v.w;
    const int n_c = (threadIdx.x % (BN / 4)) * 4, n_r = threadIdx.x / (BN / 4);
    float4 w = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if ((!CHECK_N_ROW || tile + n_r < k) && block_col + n_c < n) {  // BUG when not checked
      w = *reinterpret_cast<const float4*>(N + (tile + n_r) * n + block_col + n_c);
    }
    *reinterpret_cast<float4*>(Ntile + n_r * BN + n_c) = w;
    __syncthreads();
    for (int dot = 0; dot < BK; ++dot) {
      for (int i = 0; i < TM; ++i) {
        const float m_value = Mtile_t[dot * BM + thread_row * TM + i];
        for (int j = 0; j < TN; ++j) acc[i][j] += m_value * Ntile[dot * BN + thread_col * TN + j];
      }
    }
    __syncthreads();
  }
  store_results<TM, TN, true>(P, acc, 0, 0, block_row + thread_row * TM,
                              block_col + thread_col * TN, m, n, n);
}

dim3 grid_of(int m, int n) { return dim3(course::ceil_div(n, BN), course::ceil_div(m, BM)); }

template <Bug BUG>
void launch_step2(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::mistakes", M, N, P, m, k, n);
  step2_kernel<BUG><<<grid_of(m, n), kThreads>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("step2 mistake");
}

// The 16-byte mistakes need the 16-byte path; other shapes get the correct scalar kernel
// (the tests choose shapes with k and n multiples of 4).
template <bool CHECK_M_ROW, bool CHECK_N_ROW>
void launch_step3(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::mistakes", M, N, P, m, k, n);
  if (!vector_loads_apply(M, N, P, k, n)) return solution::step3_vectorized_loads(M, N, P, m, k, n);
  step3_kernel<CHECK_M_ROW, CHECK_N_ROW><<<grid_of(m, n), kThreads>>>(M, N, P, m, k, n);
  COURSE_CHECK_LAUNCH("step3 mistake");
}

}  // namespace

void missing_barrier_after_load(const float* M, const float* N, float* P, int m, int k, int n) {
  launch_step2<Bug::no_barrier_after_load>(M, N, P, m, k, n);
}
void missing_barrier_after_compute(const float* M, const float* N, float* P, int m, int k,
                                   int n) {
  launch_step2<Bug::no_barrier_after_compute>(M, N, P, m, k, n);
}
void register_tile_index_off_by_one(const float* M, const float* N, float* P, int m, int k,
                                    int n) {
  launch_step2<Bug::index_off_by_one>(M, N, P, m, k, n);
}
void vector_load_past_the_edge(const float* M, const float* N, float* P, int m, int k, int n) {
  launch_step3<true, false>(M, N, P, m, k, n);
}
void m_rows_unguarded(const float* M, const float* N, float* P, int m, int k, int n) {
  launch_step3<false, true>(M, N, P, m, k, n);
}

}  // namespace register_tiled_sgemm::mistakes
