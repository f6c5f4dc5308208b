// Argument checks shared by every implementation of chapter 04.
#include <climits>
#include <stdexcept>
#include <string>

#include "boundary_tiled_matmul.cuh"

namespace boundary_tiled_matmul {

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

}  // namespace

void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n, int tile_width) {
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
  bool known = false;
  for (int t : kTileWidths) known |= t == tile_width;
  if (!known) {
    reject(function, "tile_width must be 2, 8, 16 or 32 (the widths the kernels are compiled "
                     "for), got " + std::to_string(tile_width));
  }
}

}  // namespace boundary_tiled_matmul
