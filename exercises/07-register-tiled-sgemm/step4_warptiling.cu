// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 07.4
// (or: meson test -C build --suite 07-register-tiled-sgemm:exercise --print-errorlogs)
// (generated from solutions/07-register-tiled-sgemm/ by python3 -m tools.sync_exercises)
// Step 4: warptiling, three levels of tiles.
//   block: computes a block_m x block_n tile of P, walking k in block_k slices through shared
//          memory (as in steps 1-3);
//   warp:  each warp owns a warp_m x warp_n part of the block's tile, cut into warp sub-tiles
//          (WMITER x WNITER of them, each WSUBM x WSUBN);
//   thread: in every warp sub-tile, each lane computes a thread_m x thread_n register tile.
// Why the middle level: in step 3 the 32 lanes of a warp read M and N values from all over the
// block's tile. Here a warp's lanes read one small, contiguous part of each (WSUBM values of
// M's column, WSUBN of N's row), so a warp's shared loads hit few, distinct banks and are
// broadcast to the lanes that share them; and each lane's register tile is spread over
// WMITER x WNITER sub-tiles, giving it many independent multiply-adds per value loaded.
// The tile loads and the stores are ready-made (step 3's, in register_tiled_sgemm_device.cuh).
#include <stdexcept>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "register_tiled_sgemm.cuh"
#include "register_tiled_sgemm_device.cuh"

namespace register_tiled_sgemm::exercise {

namespace {

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS,
          bool VECTOR>
__global__ void __launch_bounds__(THREADS)
    warptiling_kernel(const float* M, const float* N, float* P, int m, int k, int n) {
  constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);  // warp sub-tiles down
  constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;       // one warp sub-tile
  static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
  static_assert((WSUBM / TM) * (WSUBN / TN) == 32, "32 lanes cover a warp sub-tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "register tiles are read four floats at a time");
  constexpr int S = kTransposedStride<BM>;  // BM + 4, as in step 3
  __shared__ __align__(16) float Mtile_t[BK * S];  // transposed, as in step 3
  __shared__ __align__(16) float Ntile[BK * BN];
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
  const int lane_row = lane / (WSUBN / TN), lane_col = lane % (WSUBN / TN);
  float acc[WMITER * TM][WNITER * TN] = {};
  float m_values[WMITER * TM], n_values[WNITER * TN];
  for (int tile = 0; tile < k; tile += BK) {
    load_m_tile_transposed<BM, BK, THREADS, VECTOR>(M, Mtile_t, block_row, tile, m, k);
    load_n_tile<BK, BN, THREADS, VECTOR>(N, Ntile, tile, block_col, k, n);
    __syncthreads();
    // TODO: step 3's inner loop for this lane's place in the warp tile (the header and
    //       ./course hint 07.4): its WMITER x WNITER register tiles of TM x TN results, one in each
    //       warp sub-tile; fill m_values and n_values with 16-byte reads of the lane's rows of
    //       Mtile_t and columns of Ntile, then add every product of an M and an N value to acc.
    __syncthreads();
  }
#pragma unroll
  for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
    for (int wn = 0; wn < WNITER; ++wn) {
      store_results<TM, TN, VECTOR>(P, acc, wm * TM, wn * TN,
                                    block_row + warp_row * WM + wm * WSUBM + lane_row * TM,
                                    block_col + warp_col * WN + wn * WSUBN + lane_col * TN, m, n,
                                    n);
    }
  }
}

// The kernel of a tiling from kWarpTilings, with or without 16-byte loads.
template <const WarpTiling& T, bool VECTOR>
constexpr auto kernel_of = warptiling_kernel<T.block_m, T.block_n, T.block_k, T.warp_m, T.warp_n,
                                             T.warp_n_iterations, T.thread_m, T.thread_n,
                                             T.threads, VECTOR>;

template <const WarpTiling& T>
void launch(const float* M, const float* N, float* P, int m, int k, int n) {
  const dim3 grid(course::ceil_div(n, T.block_n), course::ceil_div(m, T.block_m));
  with_vector_choice(M, N, P, k, n, [&](auto vector) {
    kernel_of<T, decltype(vector)::value><<<grid, T.threads>>>(M, N, P, m, k, n);
  });
  COURSE_CHECK_LAUNCH("warptiling_kernel");
}

}  // namespace

void step4_warptiling(const float* M, const float* N, float* P, int m, int k, int n,
                      const WarpTiling& tiling) {
  check_arguments("register_tiled_sgemm::step4_warptiling", M, N, P, m, k, n);
  if (tiling == kLargeTiles) return launch<kLargeTiles>(M, N, P, m, k, n);
  if (tiling == kWideTiles) return launch<kWideTiles>(M, N, P, m, k, n);
  if (tiling == kSmallTiles) return launch<kSmallTiles>(M, N, P, m, k, n);
  throw std::invalid_argument("register_tiled_sgemm::step4_warptiling: the tiling " +
                              tiling.text() + " is not compiled; use one of kWarpTilings (" +
                              kLargeTiles.text() + "; " + kWideTiles.text() + "; " +
                              kSmallTiles.text() + ")");
}

void step4_warptiling(const float* M, const float* N, float* P, int m, int k, int n) {
  check_arguments("register_tiled_sgemm::step4_warptiling", M, N, P, m, k, n);
  step4_warptiling(M, N, P, m, k, n, choose_warp_tiling(m, n, multiprocessor_count()));
}

template <const WarpTiling& T>
const void* kernel_for(bool vector) {
  return vector ? reinterpret_cast<const void*>(kernel_of<T, true>)
                : reinterpret_cast<const void*>(kernel_of<T, false>);
}

KernelResources step4_resources(const WarpTiling& tiling, bool vector) {
  if (tiling == kWideTiles) return resources_of(kernel_for<kWideTiles>(vector));
  if (tiling == kSmallTiles) return resources_of(kernel_for<kSmallTiles>(vector));
  return resources_of(kernel_for<kLargeTiles>(vector));
}

}  // namespace register_tiled_sgemm::exercise
