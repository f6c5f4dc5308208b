// Argument checks shared by every implementation of chapter 05.
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "course/rounding.hpp"
#include "reduction.cuh"

namespace reduction {

void check_block_size(const char* function, int block_size) {
  if (block_size < 64 || block_size > 1024 || !course::is_power_of_two(block_size)) {
    throw std::invalid_argument(
        std::string(function) + ": block_size must be a power of two from 64 to 1024 (the tree "
        "halves the block at every level, and the last warp reads 32 elements further), got " +
        std::to_string(block_size));
  }
}

void check_input(const char* function, const void* input, std::size_t n) {
  if (input == nullptr && n > 0) {
    throw std::invalid_argument(std::string(function) + ": input is a null pointer but n = " +
                                std::to_string(n) + "; pass a device array of n elements");
  }
}

void check_grid(const char* function, std::size_t n, int block_size, int elements_per_thread) {
  const std::size_t per_block = static_cast<std::size_t>(block_size) * elements_per_thread;
  if (course::ceil_div(n, per_block) > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument(
        std::string(function) + ": n = " + std::to_string(n) + " needs more than 2^31 - 1 blocks " +
        "of " + std::to_string(per_block) + " elements; use a larger block_size or sum the input " +
        "in parts");
  }
}

template <typename T>
long double cpu_sum(const std::vector<T>& input) {
  long double sum = 0;
  for (T x : input) sum += x;
  return sum;
}

std::size_t summation_depth(std::size_t n) {
  const double levels = std::ceil(std::log2(std::max<double>(2.0, static_cast<double>(n))));
  return 2 * static_cast<std::size_t>(levels) + 4;
}

template <typename T>
double rounding_error_bound(const std::vector<T>& input) {
  long double magnitude = 0;
  for (T x : input) magnitude += std::fabs(x);
  return course::summation_error_bound<T>(magnitude, summation_depth(input.size()));
}

template long double cpu_sum<int>(const std::vector<int>&);
template long double cpu_sum<float>(const std::vector<float>&);
template long double cpu_sum<double>(const std::vector<double>&);
template double rounding_error_bound<int>(const std::vector<int>&);
template double rounding_error_bound<float>(const std::vector<float>&);
template double rounding_error_bound<double>(const std::vector<double>&);

}  // namespace reduction
