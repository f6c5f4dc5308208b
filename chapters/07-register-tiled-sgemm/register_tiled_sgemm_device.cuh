// Device pieces of chapter 07.
//
// The tile loads and the result stores, with chapter 04's boundary checks: an element outside a
// matrix loads as 0.0f (harmless in a dot product), and nothing is stored outside P. Each is
// written twice, chosen at compile time: VECTOR (16-byte loads and stores, when
// vector_loads_apply()) and one float at a time. Step 3 asks you to write the vector loads
// yourself; from step 4 on they come ready-made from here (read them after step 3).
#pragma once

#include <type_traits>

#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm {

// The transposed tile's rows are BM + 4 floats long, not BM: the threads that store one column
// of M (consecutive c, the same r) then hit different banks instead of all the same one
// (c * BM is a multiple of 32 banks), and a multiple of 4 keeps the float4 reads aligned.
template <int BM>
inline constexpr int kTransposedStride = BM + 4;

// Copies the BM x BK tile of M whose top-left element is (row0, col0) into shared memory,
// TRANSPOSED: tile_t[c * kTransposedStride<BM> + r] = M(row0 + r, col0 + c). The inner loops
// then read BM-long columns of the tile as consecutive floats, four at a time.
template <int BM, int BK, int THREADS, bool VECTOR>
__device__ __forceinline__ void load_m_tile_transposed(const float* M, float* tile_t, int row0,
                                                       int col0, int m, int k) {
  if constexpr (VECTOR) {
    constexpr int kVectorsPerRow = BK / 4;
    constexpr int kRowsPerRound = THREADS / kVectorsPerRow;
    static_assert(THREADS % kVectorsPerRow == 0 && BM % kRowsPerRound == 0, "tile shape");
    const int c = (threadIdx.x % kVectorsPerRow) * 4;
#pragma unroll
    for (int r = threadIdx.x / kVectorsPerRow; r < BM; r += kRowsPerRound) {
      const int row = row0 + r, col = col0 + c;
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      // k % 4 == 0: a vector that starts inside the row ends inside it.
      if (row < m && col < k) v = *reinterpret_cast<const float4*>(M + row * k + col);
      constexpr int S = kTransposedStride<BM>;
      tile_t[(c + 0) * S + r] = v.x;
      tile_t[(c + 1) * S + r] = v.y;
      tile_t[(c + 2) * S + r] = v.z;
      tile_t[(c + 3) * S + r] = v.w;
    }
  } else {
    static_assert(BM * BK % THREADS == 0, "every thread loads the same number of elements");
#pragma unroll
    for (int round = 0; round < BM * BK / THREADS; ++round) {
      const int e = threadIdx.x + round * THREADS;
      const int r = e / BK, c = e % BK;
      const int row = row0 + r, col = col0 + c;
      tile_t[c * kTransposedStride<BM> + r] = row < m && col < k ? M[row * k + col] : 0.0f;
    }
  }
}

// Copies the BK x BN tile of N at (row0, col0) into shared memory as it is (row-major).
template <int BK, int BN, int THREADS, bool VECTOR>
__device__ __forceinline__ void load_n_tile(const float* N, float* tile, int row0, int col0,
                                            int k, int n) {
  if constexpr (VECTOR) {
    constexpr int kVectorsPerRow = BN / 4;
    constexpr int kRowsPerRound = THREADS / kVectorsPerRow;
    static_assert(THREADS % kVectorsPerRow == 0 && BK % kRowsPerRound == 0, "tile shape");
    const int c = (threadIdx.x % kVectorsPerRow) * 4;
#pragma unroll
    for (int r = threadIdx.x / kVectorsPerRow; r < BK; r += kRowsPerRound) {
      const int row = row0 + r, col = col0 + c;
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (row < k && col < n) v = *reinterpret_cast<const float4*>(N + row * n + col);
      *reinterpret_cast<float4*>(tile + r * BN + c) = v;
    }
  } else {
    static_assert(BK * BN % THREADS == 0, "every thread loads the same number of elements");
#pragma unroll
    for (int round = 0; round < BK * BN / THREADS; ++round) {
      const int e = threadIdx.x + round * THREADS;
      const int r = e / BN, c = e % BN;
      const int row = row0 + r, col = col0 + c;
      tile[r * BN + c] = row < k && col < n ? N[row * n + col] : 0.0f;
    }
  }
}

// Stores TM x TN of a thread's results, acc[acc_row0 + i][acc_col0 + j], at P(row0 + i,
// col0 + j), skipping what lies outside the m x n matrix P, whose rows are `ldp` floats apart.
// VECTOR: four columns per 16-byte store (n and ldp multiples of 4 and col0 % 4 == 0, so a
// vector that starts inside a row ends inside it). ATOMIC: adds to P instead (step 5's
// split-K: several blocks add partial dot products into a zeroed P). TN: a multiple of 4.
template <int TM, int TN, bool VECTOR, int R, int C, bool ATOMIC = false>
__device__ __forceinline__ void store_results(float* P, const float (&acc)[R][C], int acc_row0,
                                              int acc_col0, int row0, int col0, int m, int n,
                                              int ldp) {
  static_assert(TN % 4 == 0, "results are stored four columns at a time");
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + i;
    if (row >= m) continue;
    const float* values = acc[acc_row0 + i] + acc_col0;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int col = col0 + j;
      if constexpr (ATOMIC) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          if (col + q < n) atomicAdd(P + row * ldp + col + q, values[j + q]);
        }
      } else if constexpr (VECTOR) {
        if (col < n) {
          *reinterpret_cast<float4*>(P + row * ldp + col) =
              make_float4(values[j], values[j + 1], values[j + 2], values[j + 3]);
        }
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          if (col + q < n) P[row * ldp + col + q] = values[j + q];
        }
      }
    }
  }
}

// Step 4's warp tile, ready-made for step 5 (read it after step 4). The block's tile is cut
// into (BM / WM) x (BN / WN) warp tiles; a warp tile into WMITER x WNITER sub-tiles of
// WSUBM x WSUBN; in each sub-tile a lane owns TM x TN results.
template <int BM, int BN, int WM, int WN, int WNITER, int TM, int TN>
struct WarpTile {
  static constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
  static constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
  static constexpr int ROWS = WMITER * TM, COLUMNS = WNITER * TN;  // a lane's results
  static_assert((WSUBM / TM) * (WSUBN / TN) == 32, "32 lanes cover a warp sub-tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "register tiles are read four floats at a time");

  int first_row, first_column;  // of this lane's first sub-tile, within the block's tile

  __device__ WarpTile() {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    first_row = (warp / (BN / WN)) * WM + (lane / (WSUBN / TN)) * TM;
    first_column = (warp % (BN / WN)) * WN + (lane % (WSUBN / TN)) * TN;
  }

  // acc += this lane's part of Mtile_t(rows, 0..BK) x Ntile(0..BK, columns).
  template <int BK>
  __device__ __forceinline__ void multiply(const float* Mtile_t, const float* Ntile,
                                           float (&acc)[ROWS][COLUMNS]) const {
    float m_values[ROWS], n_values[COLUMNS];
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
#pragma unroll
      for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
        for (int i = 0; i < TM; i += 4) {
          const float4 a = *reinterpret_cast<const float4*>(
              Mtile_t + dot * kTransposedStride<BM> + first_row + wm * WSUBM + i);
          float* to = m_values + wm * TM + i;
          to[0] = a.x, to[1] = a.y, to[2] = a.z, to[3] = a.w;
        }
      }
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const float4 b = *reinterpret_cast<const float4*>(Ntile + dot * BN + first_column +
                                                            wn * WSUBN + j);
          float* to = n_values + wn * TN + j;
          to[0] = b.x, to[1] = b.y, to[2] = b.z, to[3] = b.w;
        }
      }
#pragma unroll
      for (int a = 0; a < ROWS; ++a) {
#pragma unroll
        for (int b = 0; b < COLUMNS; ++b) acc[a][b] += m_values[a] * n_values[b];
      }
    }
  }

  // Stores (or, ATOMIC, adds) the lane's results into the m x n matrix P (rows `ldp` floats
  // apart), whose block tile starts at (block_row, block_col).
  template <bool VECTOR, bool ATOMIC = false>
  __device__ __forceinline__ void store(float* P, const float (&acc)[ROWS][COLUMNS], int block_row,
                                        int block_col, int m, int n, int ldp) const {
#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
        store_results<TM, TN, VECTOR, ROWS, COLUMNS, ATOMIC>(
            P, acc, wm * TM, wn * TN, block_row + first_row + wm * WSUBM,
            block_col + first_column + wn * WSUBN, m, n, ldp);
      }
    }
  }
};

// Step 5's asynchronous copies (sm_80 and newer): the three PTX instructions behind them,
// each as a function, so that step 5 is written in C++. A thread starts copies, groups what
// it started, and later waits for its groups; the copies travel from global to shared memory
// without passing through registers, so the thread goes on computing meanwhile.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define REGISTER_TILED_SGEMM_HAS_ASYNC_COPY 1
// Starts copying 16 bytes from `source` (global memory, 16-byte aligned) to `target` (shared
// memory, 16-byte aligned). Only the first `source_bytes` (0 or 16 here) are read; the rest of
// the 16 are written as zeros, so 0 fills the target with zeros and reads nothing.
__device__ __forceinline__ void copy_16_bytes_async(float* target, const float* source,
                                                    int source_bytes) {
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(target));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address),
               "l"(source), "r"(source_bytes));
}
// Closes the group of the copies this thread started since the last commit.
__device__ __forceinline__ void commit_async_copies() {
  asm volatile("cp.async.commit_group;\n" ::);
}
// Waits until every group this thread committed has landed in shared memory. Other threads'
// copies are theirs to wait for: a __syncthreads() after everyone's wait makes them visible to
// the whole block.
__device__ __forceinline__ void wait_for_async_copies() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}
#endif

// Launches kernel<VECTOR = true> when the 16-byte path applies, else kernel<false>: `launch`
// is called with std::true_type or std::false_type.
template <typename Launch>
void with_vector_choice(const float* M, const float* N, const float* P, int k, int n,
                        Launch&& launch) {
  if (vector_loads_apply(M, N, P, k, n)) {
    launch(std::true_type{});
  } else {
    launch(std::false_type{});
  }
}

}  // namespace register_tiled_sgemm
