// Exercise file: replace every TODO below with your code. Check it with
//   meson test -C build --suite 07-register-tiled-sgemm:exercise
// (generated from solutions/07-register-tiled-sgemm/ by tools/sync_exercises.py)
// Step 5: double buffering (and split-K for shapes with few tiles).
// Changed from step 4: two copies of each shared tile. While the warps multiply the tiles of
// slice `tile` (stage s), the loads of slice `tile + BK` are already on their way into the
// other stage: M's through registers (it is transposed on the way, which an asynchronous copy
// cannot do), N's with cp.async on sm_80 and newer (global to shared memory directly, no
// registers, waited for with cp.async.wait_group) and through registers on sm_75. The global
// loads' latency now overlaps the arithmetic of the current slice, so a block needs fewer
// warps to keep the multiply-add units busy; and one barrier per slice suffices instead of
// two: the stage being written was last read before the previous barrier.
// Split-K, in the launcher: a product with few output tiles (4096 x 1000 x 333 has 96 of
// 128 x 128) would leave most multiprocessors idle. Then the k range is cut into slices handled
// by separate blocks (blockIdx.z), which add their partial results into a zeroed P with
// atomicAdd.
#include <algorithm>
#include <stdexcept>
#include <string>

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
    constexpr int S = kTransposedStride<BM>;
    const int c = (threadIdx.x % kPerRow) * (VECTOR ? 4 : 1);
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int r = threadIdx.x / kPerRow + round * kRowsPerRound;
      tile_t[c * S + r] = values[round].x;
      if constexpr (VECTOR) {
        tile_t[(c + 1) * S + r] = values[round].y;
        tile_t[(c + 2) * S + r] = values[round].z;
        tile_t[(c + 3) * S + r] = values[round].w;
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
          bool VECTOR, bool SPLIT_K>
__global__ void __launch_bounds__(THREADS)
    double_buffered_kernel(const float* M, const float* N, float* P, int m, int k, int n,
                           int k_per_split) {
  using Tile = WarpTile<BM, BN, WM, WN, WNITER, TM, TN>;  // step 4, ready-made
  __shared__ __align__(16) float Mtile_t[2][BK * kTransposedStride<BM>];
  __shared__ __align__(16) float Ntile[2][BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  // This block's part of k: all of it, or one split (k_per_split is a multiple of BK, so no
  // slice crosses into the next split).
  const int k_begin = blockIdx.z * k_per_split, k_end = min(k, k_begin + k_per_split);
  const Tile warp_tile;
  float acc[Tile::ROWS][Tile::COLUMNS] = {};
  MTileInFlight<BM, BK, THREADS, VECTOR> m_next;
  NTileInFlight<BK, BN, THREADS, VECTOR> n_next;
  // The first slice into stage 0, before the loop.
  m_next.fetch(M, block_row, k_begin, m, k);
  n_next.start(N, Ntile[0], k_begin, block_col, k, n);
  m_next.store(Mtile_t[0]);
  n_next.finish(Ntile[0]);
  __syncthreads();
  int stage = 0;
  for (int tile = k_begin; tile < k_end; tile += BK) {
    // TODO: if there is a next slice (tile + BK < k_end): m_next.fetch(...) and
    //       n_next.start(...) it into stage 1 - stage FIRST; then warp_tile.multiply<BK>(...)
    //       on stage `stage`; then, if there was a next slice, m_next.store(...) and
    //       n_next.finish(...) into stage 1 - stage. One __syncthreads(), and the stages swap.
  }
  warp_tile.template store<VECTOR, SPLIT_K>(P, acc, block_row, block_col, m, n);
}

template <const WarpTiling& T, bool VECTOR, bool SPLIT_K>
constexpr auto kernel_of =
    double_buffered_kernel<T.block_m, T.block_n, T.block_k, T.warp_m, T.warp_n,
                           T.warp_n_iterations, T.thread_m, T.thread_n, T.threads, VECTOR, SPLIT_K>;

// Blocks of `kernel` the GPU runs at once.
int resident_blocks(const void* kernel, int threads) {
  int per_multiprocessor = 0;
  COURSE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, 0));
  return std::max(1, per_multiprocessor) * multiprocessor_count();
}

template <const WarpTiling& T>
void launch(const float* M, const float* N, float* P, int m, int k, int n, int k_splits) {
  const int k_per_split = course::ceil_div(course::ceil_div(k, k_splits), T.block_k) * T.block_k;
  const int splits = course::ceil_div(k, k_per_split);
  if (splits > 1) {  // the splits add into P
    COURSE_CHECK(cudaMemsetAsync(P, 0, static_cast<std::size_t>(m) * n * sizeof(float)));
  }
  const dim3 grid(course::ceil_div(n, T.block_n), course::ceil_div(m, T.block_m), splits);
  with_vector_choice(M, N, P, k, n, [&](auto vector) {
    constexpr bool VECTOR = decltype(vector)::value;
    const auto kernel = splits > 1 ? kernel_of<T, VECTOR, true> : kernel_of<T, VECTOR, false>;
    kernel<<<grid, T.threads>>>(M, N, P, m, k, n, k_per_split);
  });
  COURSE_CHECK_LAUNCH("double_buffered_kernel");
}

}  // namespace

void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n,
                            const WarpTiling& tiling, int k_splits) {
  const char* name = "register_tiled_sgemm::step5_double_buffering";
  check_arguments(name, M, N, P, m, k, n);
  if (k_splits < 1 || k_splits > 64) {
    throw std::invalid_argument(std::string(name) + ": k_splits must be 1 to 64, got " +
                                std::to_string(k_splits));
  }
  if (tiling == kLargeTiles) return launch<kLargeTiles>(M, N, P, m, k, n, k_splits);
  if (tiling == kWideTiles) return launch<kWideTiles>(M, N, P, m, k, n, k_splits);
  throw std::invalid_argument(std::string(name) + ": the tiling " + tiling.text() +
                              " is not compiled for double buffering; use " + kLargeTiles.text() +
                              " or " + kWideTiles.text());
}

int step5_default_splits(int m, int k, int n) {
  static const int resident = resident_blocks(
      reinterpret_cast<const void*>(kernel_of<kLargeTiles, true, false>), kLargeTiles.threads);
  const long long tiles = 1ll * course::ceil_div(m, kLargeTiles.block_m) *
                          course::ceil_div(n, kLargeTiles.block_n);
  return choose_k_splits(tiles, k, resident);
}

void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step5_double_buffering", M, N, P, m, k, n);
  step5_double_buffering(M, N, P, m, k, n, kLargeTiles, step5_default_splits(m, k, n));
}

KernelResources step5_resources(const WarpTiling& tiling) {
  return resources_of(reinterpret_cast<const void*>(
      tiling == kWideTiles ? kernel_of<kWideTiles, true, false>
                           : kernel_of<kLargeTiles, true, false>));
}

}  // namespace register_tiled_sgemm::exercise
