// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 07.5
// (or: meson test -C build --suite 07-register-tiled-sgemm:exercise --print-errorlogs)
// (generated from solutions/07-register-tiled-sgemm/ by python3 -m tools.sync_exercises)
// Step 5: double buffering (and, in the launcher, padded rows, narrower tiles and split-K).
// Changed from step 4: two copies of each shared tile. While the warps multiply the tiles of
// slice `tile` (stage s), the loads of slice `tile + BK` are already on their way into the
// other stage: M's through registers (it is transposed on the way, which an asynchronous copy
// cannot do), N's as asynchronous copies on sm_80 and newer (global to shared memory directly,
// no registers; you write them with the three functions in register_tiled_sgemm_device.cuh)
// and through registers on sm_75. The global loads' latency now overlaps the arithmetic of the
// current slice, so a block needs fewer warps to keep the multiply-add units busy; and one
// barrier per slice suffices instead of two: the stage being written was last read before the
// previous barrier.
// The launcher's three shape tricks:
//  - padded rows: when k (or n) is not a multiple of 4 (4097), M (or N) is first copied into a
//    buffer whose rows are padded with zeros to a multiple of 4 floats, so the kernel always
//    takes the 16-byte path to load; P is stored in place, 16 bytes or one float at a time.
//    A few percent of memory traffic instead of a slower kernel.
//  - narrower tiles: when there are fewer 128 x 128 tiles than multiprocessors (4096 x 1000 x
//    333 has 96 for 132), 96 x 112 tiles (129 of them) keep almost every multiprocessor busy.
//  - split-K: when the output tiles fill the GPU's block slots badly in the last of several
//    waves (4097^2: 1089 tiles for 264 slots), the k range is cut into slices handled by
//    separate blocks (blockIdx.z), which add their partial results into a zeroed P with
//    atomicAdd.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"
#include "register_tiled_sgemm_device.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

// M's next tile, carried in registers from global memory (float4 loads) to shared memory,
// where it is stored transposed.
template <int BM, int BK, int THREADS>
struct MTileInFlight {
  static constexpr int kPerRow = BK / 4;  // float4 loads per row of the tile
  static constexpr int kRowsPerRound = THREADS / kPerRow;
  // The last round may reach past the tile's BM rows (96 rows, 56 per round): those threads
  // skip it. in_tile() is a compile-time `true` when the rounds fit exactly.
  static constexpr int kRounds = (BM + kRowsPerRound - 1) / kRowsPerRound;
  static_assert(THREADS % kPerRow == 0, "tile shape");
  float4 values[kRounds];

  // M is m x k with rows ldm floats apart (ldm % 4 == 0, zeros from column k to ldm).
  __device__ __forceinline__ void fetch(const float* M, int row0, int col0, int m, int k,
                                        int ldm) {
    const int col = col0 + (threadIdx.x % kPerRow) * 4;
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int row = row0 + tile_row(round);
      values[round] = in_tile(round) && row < m && col < k
                          ? *reinterpret_cast<const float4*>(M + row * ldm + col)
                          : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
  }

  __device__ __forceinline__ void store(float* tile_t) const {
    constexpr int S = kTransposedStride<BM>;
    const int c = (threadIdx.x % kPerRow) * 4;
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      if (!in_tile(round)) continue;
      const int r = tile_row(round);
      tile_t[(c + 0) * S + r] = values[round].x;
      tile_t[(c + 1) * S + r] = values[round].y;
      tile_t[(c + 2) * S + r] = values[round].z;
      tile_t[(c + 3) * S + r] = values[round].w;
    }
  }

 private:
  __device__ __forceinline__ static int tile_row(int round) {
    return threadIdx.x / kPerRow + round * kRowsPerRound;
  }
  __device__ __forceinline__ static bool in_tile(int round) {
    return BM % kRowsPerRound == 0 || tile_row(round) < BM;
  }
};

// N's next tile: with cp.async straight into shared memory on sm_80 and newer, through
// registers before.
template <int BK, int BN, int THREADS>
struct NTileInFlight {
  static constexpr int kPerRow = BN / 4;
  static constexpr int kRowsPerRound = THREADS / kPerRow;
  static constexpr int kRounds = BK / kRowsPerRound;
  static_assert(THREADS % kPerRow == 0 && BK % kRowsPerRound == 0, "tile shape");

  // N is k x n with rows ldn floats apart (ldn % 4 == 0, zeros from column n to ldn).
  __device__ __forceinline__ void start(const float* N, float* tile, int row0, int col0, int k,
                                        int n, int ldn) {
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      const int r = row(round), c = column();
      const bool inside = row0 + r < k && col0 + c < n;
#ifdef REGISTER_TILED_SGEMM_HAS_ASYNC_COPY
      // TODO: start the asynchronous copy of N's four floats at (row0 + r, col0 + c) to the
      //       tile's row r, column c; where that is outside N, the tile must get zeros and N
      //       must not be read there. The copy functions: register_tiled_sgemm_device.cuh.
#else
      values[round] = inside ? *reinterpret_cast<const float4*>(N + (row0 + r) * ldn + col0 + c)
                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#endif
    }
#ifdef REGISTER_TILED_SGEMM_HAS_ASYNC_COPY
    // TODO: make this call's copies one group that finish() can wait for.
#endif
  }

  // The tile is in shared memory, as far as this thread's part goes (the caller's barrier
  // then makes the whole tile visible to the block).
  __device__ __forceinline__ void finish(float* tile) const {
#ifdef REGISTER_TILED_SGEMM_HAS_ASYNC_COPY
    // TODO: wait for this thread's copies.
#else
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      *reinterpret_cast<float4*>(tile + row(round) * BN + column()) = values[round];
    }
#endif
  }

 private:
  __device__ __forceinline__ int column() const { return (threadIdx.x % kPerRow) * 4; }
  __device__ __forceinline__ int row(int round) const {
    return threadIdx.x / kPerRow + round * kRowsPerRound;
  }
  float4 values[kRounds];  // sm_75: the registers that carry the tile (unused with cp.async)
};

// The kernel loads 16 bytes at a time: M's and N's rows must be multiples of 4 floats apart
// (ldm, ldn) and 16-byte aligned, which the launcher arranges by padding. P (rows ldp apart)
// is stored 16 bytes at a time when VECTOR_STORE, else one float at a time.
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS,
          bool SPLIT_K, bool VECTOR_STORE>
__global__ void __launch_bounds__(THREADS)
    double_buffered_kernel(const float* M, const float* N, float* P, int m, int k, int n,
                           int ldm, int ldn, int ldp, int k_per_split) {
  using Tile = WarpTile<BM, BN, WM, WN, WNITER, TM, TN>;  // step 4, ready-made
  __shared__ __align__(16) float Mtile_t[2][BK * kTransposedStride<BM>];
  __shared__ __align__(16) float Ntile[2][BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  // This block's part of k: all of it, or one split (k_per_split is a multiple of BK, so no
  // slice crosses into the next split).
  const int k_begin = blockIdx.z * k_per_split, k_end = min(k, k_begin + k_per_split);
  const Tile warp_tile;
  float acc[Tile::ROWS][Tile::COLUMNS] = {};
  MTileInFlight<BM, BK, THREADS> m_next;
  NTileInFlight<BK, BN, THREADS> n_next;
  // The first slice into stage 0, before the loop.
  m_next.fetch(M, block_row, k_begin, m, k, ldm);
  n_next.start(N, Ntile[0], k_begin, block_col, k, n, ldn);
  m_next.store(Mtile_t[0]);
  n_next.finish(Ntile[0]);
  __syncthreads();
  int stage = 0;
  for (int tile = k_begin; tile < k_end; tile += BK) {
    // TODO: one slice of k per iteration, two stages: the loads of the next slice (if there is
    //       one: tile + BK < k_end) must be on their way while warp_tile multiplies the current
    //       stage, and be in shared memory before the barrier; one __syncthreads() per slice, then
    //       the stages swap. m_next, n_next and warp_tile do the work; where each call goes and
    //       which stage it writes: ./course hint 07.5.
  }
  warp_tile.template store<VECTOR_STORE, SPLIT_K>(P, acc, block_row, block_col, m, n, ldp);
}

template <const WarpTiling& T, bool SPLIT_K, bool VECTOR_STORE>
constexpr auto kernel_of =
    double_buffered_kernel<T.block_m, T.block_n, T.block_k, T.warp_m, T.warp_n,
                           T.warp_n_iterations, T.thread_m, T.thread_n, T.threads, SPLIT_K,
                           VECTOR_STORE>;

// The kernel of a tiling, for its occupancy and its resources (the launcher's choice for large
// shapes: whole k, 16-byte stores, unless asked for another variant).
template <const WarpTiling& T>
auto variant_of(bool split_k, bool vector_store) {
  if (split_k) return vector_store ? kernel_of<T, true, true> : kernel_of<T, true, false>;
  return vector_store ? kernel_of<T, false, true> : kernel_of<T, false, false>;
}

const void* step5_kernel(const WarpTiling& tiling, bool split_k = false, bool vector_store = true) {
  const auto kernel = tiling == kLargeTiles    ? variant_of<kLargeTiles>(split_k, vector_store)
                      : tiling == kNarrowTiles ? variant_of<kNarrowTiles>(split_k, vector_store)
                                               : variant_of<kWideTiles>(split_k, vector_store);
  return reinterpret_cast<const void*>(kernel);
}

bool aligned16(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0; }

// Copies of M or N with rows padded to a multiple of 4 floats, kept from call to call.
course::DeviceBuffer<float>& padded_copy(int which) {
  static course::DeviceBuffer<float> buffers[2];
  return buffers[which];
}

// `rows` x `columns` of `from` (row-major) into buffer `which`, rows padded with zeros to a
// multiple of 4 floats; returns the copy and sets `padded` to its row length.
const float* copy_padded(const float* from, int rows, int columns, int which, int& padded) {
  padded = course::ceil_div(columns, 4) * 4;
  course::DeviceBuffer<float>& to = padded_copy(which);
  to.reserve_discard(static_cast<std::size_t>(rows) * padded);
  const std::size_t pitch = padded * sizeof(float), width = columns * sizeof(float);
  COURSE_CHECK(cudaMemcpy2DAsync(to.data(), pitch, from, width, width, rows,
                                 cudaMemcpyDeviceToDevice));
  if (padded > columns) {
    COURSE_CHECK(cudaMemset2DAsync(to.data() + columns, pitch, 0,
                                   (padded - columns) * sizeof(float), rows));
  }
  return to.data();
}

template <const WarpTiling& T>
void run(const float* M, const float* N, float* P, int m, int k, int n, int k_splits) {
  int ldm = k, ldn = n;
  if (k % 4 != 0 || !aligned16(M)) M = copy_padded(M, m, k, 0, ldm);
  if (n % 4 != 0 || !aligned16(N)) N = copy_padded(N, k, n, 1, ldn);
  const int k_per_split = course::ceil_div(course::ceil_div(k, k_splits), T.block_k) * T.block_k;
  const int splits = course::ceil_div(k, k_per_split);
  if (splits > 1) {  // the splits add into P
    COURSE_CHECK(cudaMemsetAsync(P, 0, static_cast<std::size_t>(m) * n * sizeof(float)));
  }
  const dim3 grid(course::ceil_div(n, T.block_n), course::ceil_div(m, T.block_m), splits);
  const bool vector_store = n % 4 == 0 && aligned16(P);
  const auto kernel = variant_of<T>(splits > 1, vector_store);
  kernel<<<grid, T.threads>>>(M, N, P, m, k, n, ldm, ldn, n, k_per_split);
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
  if (tiling == kWideTiles) return run<kWideTiles>(M, N, P, m, k, n, k_splits);
  if (tiling == kLargeTiles) return run<kLargeTiles>(M, N, P, m, k, n, k_splits);
  if (tiling == kNarrowTiles) return run<kNarrowTiles>(M, N, P, m, k, n, k_splits);
  throw std::invalid_argument(std::string(name) + ": the tiling " + tiling.text() +
                              " is not compiled for double buffering; use one of "
                              "kDoubleBufferedTilings (" + kLargeTiles.text() + "; " +
                              kWideTiles.text() + "; " + kNarrowTiles.text() + ")");
}

KernelResources step5_resources(const WarpTiling& tiling, bool split_k, bool vector_store) {
  return resources_of(step5_kernel(tiling, split_k, vector_store));
}

int step5_default_splits(int m, int k, int n, const WarpTiling& tiling) {
  const int multiprocessors = multiprocessor_count();
  const long long tiles =
      1ll * course::ceil_div(m, tiling.block_m) * course::ceil_div(n, tiling.block_n);
  const int resident =
      course::resident_blocks_per_multiprocessor(step5_kernel(tiling), tiling.threads) *
      multiprocessors;
  return choose_k_splits(tiles, k, resident, multiprocessors);
}

void step5_double_buffering(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step5_double_buffering", M, N, P, m, k, n);
  const WarpTiling tiling = choose_double_buffered_tiling(m, n, multiprocessor_count());
  step5_double_buffering(M, N, P, m, k, n, tiling, step5_default_splits(m, k, n, tiling));
}

}  // namespace register_tiled_sgemm::exercise
