// Argument checks shared by every implementation of chapter 02.
#include <stdexcept>
#include <string>

#include "naive_matmul.cuh"

namespace naive_matmul {

namespace {

[[noreturn]] void reject(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

}  // namespace

void check_width(const char* function, int width) {
  if (width <= 0) reject(function, "Width must be at least 1, got " + std::to_string(width));
  if (width > kMaxWidth) {
    reject(function, "Width " + std::to_string(width) + " is too large: Width * Width must fit "
           "in a 32-bit int for the kernel's Row * Width + Col indexing (Width <= " +
           std::to_string(kMaxWidth) + ")");
  }
}

void check_matrices(const char* function, const float* M, const float* N, const float* P,
                    int width) {
  check_width(function, width);
  if (M == nullptr || N == nullptr || P == nullptr) {
    reject(function, "M, N and P must be device pointers to Width * Width floats, got a null "
                     "pointer");
  }
}

void check_block_side(const char* function, int block_side) {
  if (block_side < 1 || block_side > 32) {
    reject(function, "block_side must be between 1 and 32 (a block holds at most 1024 = 32 x 32 "
                     "threads), got " + std::to_string(block_side));
  }
}

void check_config(const char* function, const LaunchConfig& config) {
  const unsigned long long threads =
      1ull * config.block.x * config.block.y * config.block.z;
  if (threads == 0 || threads > 1024) {
    reject(function, "a block must have between 1 and 1024 threads, the configuration has " +
                     std::to_string(threads));
  }
  if (config.grid.x == 0 || config.grid.y == 0 || config.grid.z == 0) {
    reject(function, "the grid has a zero dimension: is launch_config() still a TODO?");
  }
}

}  // namespace naive_matmul
