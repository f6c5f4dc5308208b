// Exercise file: replace every TODO below with your code. Check it with
//   meson test -C build --suite 07-register-tiled-sgemm:exercise
// (generated from solutions/07-register-tiled-sgemm/ by tools/sync_exercises.py)
// Step 5: double buffering.
// Changed from step 4: two copies of each shared tile. While the warps multiply the tiles of
// slice `tile` (stage s), the loads of slice `tile + BK` are already on their way into the
// other stage: M's through registers (it is transposed on the way, which an asynchronous copy
// cannot do), N's with cp.async on sm_80 and newer (global to shared memory directly, no
// registers, waited for with cp.async.wait_group) and through registers on sm_75. The global
// loads' latency now overlaps the arithmetic of the current slice, and one barrier per slice
// suffices instead of two: the stage being written was last read before the previous barrier.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"
#include "register_tiled_sgemm_device.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

// M's next tile, carried in registers from global memory to shared memory (transposed there).
template <int BM, int BK, int THREADS, bool VECTOR>
struct MTileInFlight {
  static constexpr int kPerRow = VECTOR ? BK / 4 : BK;  // loads per row of the tile
  static constexpr int kRowsPerRound = THREADS / kPerRow;
  static constexpr int kRounds = BM / kRowsPerRound;
  static_assert(THREADS % kPerRow == 0 && BM % kRowsPerRound == 0, "tile shape");
  float4 values[kRounds];  // VECTOR: a float4 per round; else .x only

  __device__ __forceinline__ void fetch(const float* M, int row0, int col0, int m, int k) {
    const int c = (threadIdx.x % kPerRow) * (VECTOR ? 4 : 1);
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int row = row0 + threadIdx.x / kPerRow + round * kRowsPerRound, col = col0 + c;
      values[round] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (row < m && col < k) {
        if constexpr (VECTOR) {
          values[round] = *reinterpret_cast<const float4*>(M + row * k + col);
        } else {
          values[round].x = M[row * k + col];
        }
      }
    }
  }

  __device__ __forceinline__ void store(float* tile_t) const {
    const int c = (threadIdx.x % kPerRow) * (VECTOR ? 4 : 1);
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int r = threadIdx.x / kPerRow + round * kRowsPerRound;
      tile_t[c * BM + r] = values[round].x;
      if constexpr (VECTOR) {
        tile_t[(c + 1) * BM + r] = values[round].y;
        tile_t[(c + 2) * BM + r] = values[round].z;
        tile_t[(c + 3) * BM + r] = values[round].w;
      }
    }
  }
};

// N's next tile: with cp.async (sm_80+, 16-byte loads) straight into shared memory, else
// through registers like M's.
template <int BK, int BN, int THREADS, bool VECTOR>
struct NTileInFlight {
  static constexpr int kPerRow = VECTOR ? BN / 4 : BN;
  static constexpr int kRowsPerRound = THREADS / kPerRow;
  static constexpr int kRounds = BK / kRowsPerRound;
  static_assert(THREADS % kPerRow == 0 && BK % kRowsPerRound == 0, "tile shape");

  __device__ __forceinline__ void start(const float* N, float* tile, int row0, int col0, int k,
                                        int n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (VECTOR) {
      copy_asynchronously(N, tile, row0, col0, k, n);
    } else {
      fetch(N, row0, col0, k, n);
    }
#else
    fetch(N, row0, col0, k, n);
#endif
  }

  __device__ __forceinline__ void finish(float* tile) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (VECTOR) {
      asm volatile("cp.async.wait_group 0;\n" ::: "memory");  // this thread's copies landed
    } else {
      store(tile);
    }
#else
    store(tile);
#endif
  }

 private:
  __device__ __forceinline__ int column() const {
    return (threadIdx.x % kPerRow) * (VECTOR ? 4 : 1);
  }
  __device__ __forceinline__ int row(int round) const {
    return threadIdx.x / kPerRow + round * kRowsPerRound;
  }

  __device__ __forceinline__ void copy_asynchronously(const float* N, float* tile, int row0,
                                                      int col0, int k, int n) {
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int r = row(round), c = column();
      const bool inside = row0 + r < k && col0 + c < n;
      // Outside N: a source size of 0 bytes makes cp.async write zeros.
      const float* source = inside ? N + (row0 + r) * n + col0 + c : N;
      const unsigned target = static_cast<unsigned>(__cvta_generic_to_shared(tile + r * BN + c));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(target), "l"(source),
                   "r"(inside ? 16 : 0));
    }
    asm volatile("cp.async.commit_group;\n" ::);
  }

  __device__ __forceinline__ void fetch(const float* N, int row0, int col0, int k, int n) {
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int r = row0 + row(round), c = col0 + column();
      values[round] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (r < k && c < n) {
        if constexpr (VECTOR) {
          values[round] = *reinterpret_cast<const float4*>(N + r * n + c);
        } else {
          values[round].x = N[r * n + c];
        }
      }
    }
  }

  __device__ __forceinline__ void store(float* tile) const {
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      if constexpr (VECTOR) {
        *reinterpret_cast<float4*>(tile + row(round) * BN + column()) = values[round];
      } else {
        tile[row(round) * BN + column()] = values[round].x;
      }
    }
  }

  float4 values[kRounds];  // unused with cp.async
};

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS,
          bool VECTOR>
__global__ void __launch_bounds__(THREADS)
    double_buffered_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  using Tile = WarpTile<BM, BN, WM, WN, WNITER, TM, TN>;  // step 4, ready-made
  __shared__ __align__(16) float Mtile_t[2][BK * BM];
  __shared__ __align__(16) float Ntile[2][BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const Tile warp_tile;
  float acc[Tile::ROWS][Tile::COLUMNS] = {};
  MTileInFlight<BM, BK, THREADS, VECTOR> m_next;
  NTileInFlight<BK, BN, THREADS, VECTOR> n_next;
  // The first slice into stage 0, before the loop.
  m_next.fetch(M, block_row, 0, m, k);
  n_next.start(N, Ntile[0], 0, block_col, k, n);
  m_next.store(Mtile_t[0]);
  n_next.finish(Ntile[0]);
  __syncthreads();
  int stage = 0;
  for (int tile = 0; tile < k; tile += BK) {
    // TODO: if there is a next slice (tile + BK < k): m_next.fetch(...) and n_next.start(...)
    //       it into stage 1 - stage FIRST; then warp_tile.multiply<BK>(...) on stage `stage`;
    //       then, if there was a next slice, m_next.store(...) and n_next.finish(...) into
    //       stage 1 - stage. One __syncthreads(), and the stages swap.
  }
  warp_tile.template store<VECTOR>(P, acc, block_row, block_col, m, n);
}

template <bool VECTOR>
constexpr auto kernel_of =
    double_buffered_kernel<kLargeTiles.block_m, kLargeTiles.block_n, kLargeTiles.block_k,
                           kLargeTiles.warp_m, kLargeTiles.warp_n, kLargeTiles.warp_n_iterations,
                           kLargeTiles.thread_m, kLargeTiles.thread_n, kLargeTiles.threads, VECTOR>;
template <bool VECTOR>
constexpr auto small_kernel_of =
    double_buffered_kernel<kSmallTiles.block_m, kSmallTiles.block_n, kSmallTiles.block_k,
                           kSmallTiles.warp_m, kSmallTiles.warp_n, kSmallTiles.warp_n_iterations,
                           kSmallTiles.thread_m, kSmallTiles.thread_n, kSmallTiles.threads, VECTOR>;

}  // namespace

void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step5_double_buffering", M, N, P, m, k, n);
  const WarpTiling tiling = choose_warp_tiling(m, n, multiprocessor_count());
  const dim3 grid(course::ceil_div(n, tiling.block_n), course::ceil_div(m, tiling.block_m));
  const bool large = tiling == kLargeTiles;
  with_vector_choice(M, N, P, k, n, [&](auto vector) {
    constexpr bool VECTOR = decltype(vector)::value;
    (large ? kernel_of<VECTOR> : small_kernel_of<VECTOR>)<<<grid, tiling.threads>>>(M, N, P, m,
                                                                                    k, n);
  });
  COURSE_CHECK_LAUNCH("double_buffered_kernel");
}

KernelResources step5_resources() {
  return resources_of(reinterpret_cast<const void*>(kernel_of<true>));
}

}  // namespace register_tiled_sgemm::exercise
