// Host-side pieces shared by every implementation of chapter 07: argument checks, the choice
// between 16-byte and scalar loads, the warp-tiling choice and the kernels' resources.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "course/errors.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm {

namespace {

[[noreturn]] void reject(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

void check_elements(const char* function, const char* matrix, int rows, int columns) {
  if (1ll * rows * columns > INT_MAX) {
    reject(function, std::string(matrix) + " has " + std::to_string(rows) + " x " +
                         std::to_string(columns) + " elements, more than a 32-bit int indexes "
                         "(2^31 - 1); split the product into smaller blocks");
  }
}

bool aligned16(const float* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

}  // namespace

void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n) {
  if (m < 1 || k < 1 || n < 1) {
    reject(function, "every size must be at least 1, got m = " + std::to_string(m) +
                         ", k = " + std::to_string(k) + ", n = " + std::to_string(n));
  }
  check_elements(function, "M", m, k);
  check_elements(function, "N", k, n);
  check_elements(function, "P", m, n);
  if (M == nullptr || N == nullptr || P == nullptr) {
    reject(function, "M, N and P must be device pointers, got a null pointer");
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
  const long long blocks = (1ll * (m + kWideTiles.block_m - 1) / kWideTiles.block_m) *
                           ((n + kWideTiles.block_n - 1) / kWideTiles.block_n);
  return blocks >= 2ll * multiprocessors ? kWideTiles : kSmallTiles;
}

int choose_k_splits(long long tiles, int k, int resident) {
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

int multiprocessor_count() {
  int device = 0, count = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  COURSE_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

KernelResources resources_of(const void* kernel) {
  cudaFuncAttributes attributes{};
  COURSE_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return {attributes.numRegs, attributes.localSizeBytes, attributes.sharedSizeBytes};
}

}  // namespace register_tiled_sgemm
