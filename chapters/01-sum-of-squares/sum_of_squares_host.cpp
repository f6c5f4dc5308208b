// Host-side pieces shared by every implementation of chapter 01: the workspace and the argument
// checks. (The steps themselves live in solution/ and exercise/.)
#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "course/random.hpp"
#include "sum_of_squares.cuh"

namespace sum_of_squares {

void Workspace::prepare(std::size_t partial_count, std::size_t block_count) {
  partial_count_ = partial_count;
  block_count_ = block_count;
  const std::size_t total = partial_count + block_count;
  if (device_.size() < total) device_ = course::GuardedBuffer<unsigned long long>(total);
  host_.reserve_discard(total);
  if (poison_) {
    COURSE_CHECK(cudaMemset(device_.data(), course::kPoisonByte, total * sizeof(unsigned long long)));
  }
}

Result Workspace::finish_on_host() {
  const std::size_t total = partial_count_ + block_count_;
  // One copy for partial sums and cycles: each cudaMemcpy costs several microseconds.
  COURSE_CHECK(cudaMemcpy(host_.data(), device_.data(), total * sizeof(unsigned long long),
                          cudaMemcpyDeviceToHost));
  Result result;
  for (std::size_t i = 0; i < partial_count_; ++i) result.sum += host_[i];
  for (std::size_t b = 0; b < block_count_; ++b) {
    result.gpu_cycles = std::max<std::uint64_t>(result.gpu_cycles, host_[partial_count_ + b]);
  }
  return result;
}

std::uint64_t cpu_square(int x) {
  const long long wide = x;
  return static_cast<std::uint64_t>(wide * wide);
}

std::uint64_t cpu_sum_of_squares(const std::vector<int>& input) {
  std::uint64_t sum = 0;
  for (int x : input) sum += cpu_square(x);  // unsigned: wraps modulo 2^64
  return sum;
}

std::uint32_t cpu_pointer_chase(const std::vector<std::uint32_t>& next, std::size_t loads) {
  std::uint32_t index = 0;
  for (std::size_t k = 0; k < loads; ++k) index = next[index];
  return index;
}

std::vector<std::uint32_t> random_cycle(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> next(n);
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937_64 engine(seed);
  for (std::size_t i = n - 1; i > 0 && n > 1; --i) {  // Sattolo: j < i, never j == i
    std::swap(next[i], next[engine() % i]);
  }
  return next;
}

void check_input(const char* step, const int* input, std::size_t n) {
  if (input == nullptr && n > 0) {
    throw std::invalid_argument(std::string(step) + ": input is a null pointer but n = " +
                                std::to_string(n) + "; pass a device pointer to n ints");
  }
}

void check_threads(const char* step, int threads) {
  if (threads < 1 || threads > 1024) {
    throw std::invalid_argument(std::string(step) + ": threads must be between 1 and 1024 (the "
                                "most a block can have), got " + std::to_string(threads));
  }
}

void check_blocks(const char* step, int blocks) {
  if (blocks < 1) {
    throw std::invalid_argument(std::string(step) + ": blocks must be at least 1, got " +
                                std::to_string(blocks));
  }
}

void check_power_of_two_threads(const char* step, int threads) {
  check_threads(step, threads);
  if (!course::is_power_of_two(threads)) {
    throw std::invalid_argument(std::string(step) + ": the tree reduction halves the block at "
                                "every level, so threads must be a power of two (32, 64, ..., "
                                "1024), got " + std::to_string(threads));
  }
}

}  // namespace sum_of_squares
