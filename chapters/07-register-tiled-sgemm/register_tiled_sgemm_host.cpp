// Host-side pieces shared by every implementation of chapter 07: argument checks, the choice
// between 16-byte and scalar loads, the warp-tiling choice and the kernels' resources.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "course/matmul.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm {

namespace {

bool aligned16(const float* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

// Tiles of P (m x n) with 128 x 128 tiles, which both tiling choices start from.
long long wide_tile_count(int m, int n) {
  return 1ll * course::ceil_div(m, kWideTiles.block_m) * course::ceil_div(n, kWideTiles.block_n);
}

}  // namespace

void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n) {
  course::matmul::check_operands(function, M, N, P, {m, k, n});
  if (m > kMaxRows) {
    throw std::invalid_argument(std::string(function) + ": m = " + std::to_string(m) +
                                " rows is more than the " + std::to_string(kMaxRows) +
                                " that the grids reach (" + std::to_string(course::kMaxGridDimY) +
                                " rows of blocks of 64 rows); "
                                "multiply M in parts of at most that many rows");
  }
}

bool vector_loads_apply(const float* M, const float* N, const float* P, int k, int n) {
  return k % 4 == 0 && n % 4 == 0 && aligned16(M) && aligned16(N) && aligned16(P);
}

std::string WarpTiling::text() const {
  return std::to_string(block_m) + "x" + std::to_string(block_n) + "x" + std::to_string(block_k) +
         ", warp " + std::to_string(warp_m) + "x" + std::to_string(warp_n) + ", thread " +
         std::to_string(thread_m) + "x" + std::to_string(thread_n) + ", " +
         std::to_string(threads) + " threads";
}

bool WarpTiling::operator==(const WarpTiling& o) const {
  return block_m == o.block_m && block_n == o.block_n && block_k == o.block_k &&
         warp_m == o.warp_m && warp_n == o.warp_n && warp_n_iterations == o.warp_n_iterations &&
         thread_m == o.thread_m && thread_n == o.thread_n && threads == o.threads;
}

WarpTiling choose_warp_tiling(int m, int n, int multiprocessors) {
  return wide_tile_count(m, n) >= 2ll * multiprocessors ? kWideTiles : kSmallTiles;
}

WarpTiling choose_double_buffered_tiling(int m, int n, int multiprocessors) {
  return wide_tile_count(m, n) >= multiprocessors ? kWideTiles : kNarrowTiles;
}

int choose_k_splits(long long tiles, int k, int resident, int multiprocessors) {
  if (tiles < multiprocessors) return 1;
  // The share of the GPU's block slots that `splits` fills over all its waves.
  const auto filled = [&](int splits) {
    const long long blocks = tiles * splits;
    const long long waves = (blocks + resident - 1) / resident;
    return static_cast<double>(blocks) / static_cast<double>(waves * resident);
  };
  int most = 1;
  for (int splits = 1; splits <= 8 && (splits == 1 || k / splits >= 128); ++splits) most = splits;
  double best = 0.0;
  for (int splits = 1; splits <= most; ++splits) best = std::max(best, filled(splits));
  for (int splits = 1; splits <= most; ++splits) {
    if (filled(splits) >= best - 0.05) return splits;
  }
  return 1;
}

}  // namespace register_tiled_sgemm
