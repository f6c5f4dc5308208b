// Argument checks shared by every implementation of chapter 00, and step 6's launch
// configuration.
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "course/math.hpp"
#include "first_kernel.cuh"

namespace first_kernel {

namespace {

[[noreturn]] void reject(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

}  // namespace

void check_count(const char* function, std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX)) {
    reject(function, "n = " + std::to_string(n) + " elements is too many: the kernel indexes "
           "with int, so n must be at most " + std::to_string(INT_MAX));
  }
}

void check_n(const char* function, int n) {
  if (n < 0) reject(function, "n must be at least 0, got " + std::to_string(n));
}

void check_threads(const char* function, int threads) {
  // Only the lower bound: a block larger than the GPU allows is the launch's error to report
  // (and the launcher's check to catch).
  if (threads < 1) {
    reject(function, "threads per block must be at least 1, got " + std::to_string(threads));
  }
}

void check_same_size(const char* function, std::size_t x_size, std::size_t y_size) {
  if (x_size != y_size) {
    reject(function, "x has " + std::to_string(x_size) + " elements and y " +
           std::to_string(y_size) + ": SAXPY needs two arrays of the same length");
  }
  check_count(function, x_size);
}

void check_device_arrays(const char* function, const float* x, const float* y, int n) {
  check_n(function, n);
  if (n > 0 && (x == nullptr || y == nullptr)) {
    reject(function, "x and y must be GPU pointers to n floats, got a null pointer");
  }
}

void check_kernel(const char* function, SaxpyKernel kernel) {
  if (kernel == nullptr) {
    reject(function, "the kernel is a null pointer: is saxpy_kernel() still a TODO?");
  }
}

void check_host_arrays(const char* function, const float* in, const float* out, std::size_t n) {
  if (n > 0 && (in == nullptr || out == nullptr)) {
    reject(function, "in and out must be host pointers to n floats, got a null pointer");
  }
}

void check_scale(const char* function, float a) {
  if (!std::isfinite(a)) {
    reject(function, "a must be a finite number, got " + std::to_string(a));
  }
}

void check_config(const char* function, const LaunchConfig& config) {
  // Zero sizes only: a block larger than the GPU allows is the launch's error to report.
  if (config.grid.x == 0 || config.grid.y == 0 || config.grid.z == 0 || config.block.x == 0 ||
      config.block.y == 0 || config.block.z == 0) {
    reject(function, "the grid or the block has a zero dimension: is launch_config() still a "
                     "TODO?");
  }
}

LaunchConfig in_flight_launch_config(int n, int threads) {
  check_n("in_flight_launch_config", n);
  check_threads("in_flight_launch_config", threads);
  // In 64 bits: threads * kElementsPerThread may pass INT_MAX.
  const long long per_block = static_cast<long long>(threads) * kElementsPerThread;
  const long long blocks = std::max(1ll, course::ceil_div(static_cast<long long>(n), per_block));
  return LaunchConfig{dim3(static_cast<unsigned>(blocks)), dim3(threads)};
}

}  // namespace first_kernel
