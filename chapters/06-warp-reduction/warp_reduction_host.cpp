// Host-side pieces shared by every implementation of chapter 06: the workspace, the argument
// checks, the grid size of the grid-stride steps, and the CPU reference with its summation depth.
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "course/device_info.hpp"
#include "course/random.hpp"
#include "warp_reduction.cuh"

namespace warp_reduction {

template <typename T>
void Workspace<T>::begin_call(std::size_t block_sums) {
  for (auto& sums : sums_) {
    if (sums.size() < block_sums) sums = course::GuardedBuffer<T>(block_sums);
  }
  if (result_.size() == 0) result_ = course::GuardedBuffer<T>(1);
  if (ticket_.size() == 0) {
    ticket_ = course::GuardedBuffer<unsigned>(1);
    ticket_.fill_bytes(0);
  }
  if (poison_) {
    for (auto& sums : sums_) sums.fill_bytes(course::kPoisonByte);
    result_.fill_bytes(course::kPoisonByte);
  }
  launches_ = 0;
}

template <typename T>
T Workspace<T>::finish_call(const T* device_sum) {
  last_sum_ = device_sum;
  return leave_on_device_ ? T(0) : copy_last_sum();
}

template <typename T>
T Workspace<T>::copy_last_sum() const {
  T sum{};
  if (last_sum_ != nullptr) {
    COURSE_CHECK(cudaMemcpy(&sum, last_sum_, sizeof(T), cudaMemcpyDeviceToHost));
  }
  return sum;
}

template <typename T>
std::string Workspace<T>::margin_report() const {
  std::string report;
  const auto add = [&](const std::string& text) {
    if (!text.empty()) report += (report.empty() ? "" : "; ") + text;
  };
  add(sums_[0].check_margins().text("the block sums (first buffer)"));
  add(sums_[1].check_margins().text("the block sums (second buffer)"));
  add(result_.check_margins().text("the result"));
  add(ticket_.check_margins().text("the ticket counter"));
  return report;
}

template class Workspace<int>;
template class Workspace<float>;
template class Workspace<double>;

void check_arguments(const char* step, const void* input, std::size_t n, std::size_t alignment,
                     int block_size) {
  const std::string where = std::string("warp_reduction::") + step + ": ";
  if (input == nullptr && n > 0) {
    throw std::invalid_argument(where + "input is a null pointer but n = " + std::to_string(n) +
                                "; pass a device array of n elements");
  }
  if (reinterpret_cast<std::uintptr_t>(input) % alignment != 0) {
    throw std::invalid_argument(
        where + "input is not aligned to its element type (" + std::to_string(alignment) +
        " bytes); pass a pointer to an element of a cudaMalloc'd array, not a byte offset");
  }
  if (std::find(std::begin(kBlockSizes), std::end(kBlockSizes), block_size) ==
      std::end(kBlockSizes)) {
    throw std::invalid_argument(
        where + "block_size must be 64, 128, 256, 512 or 1024 (a power of two the kernels are "
        "compiled for, with whole warps), got " + std::to_string(block_size));
  }
}

void check_grid(const char* step, std::size_t n, std::size_t elements_per_block) {
  if (course::ceil_div(n, elements_per_block) > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument(
        std::string("warp_reduction::") + step + ": n = " + std::to_string(n) +
        " needs more than 2^31 - 1 blocks of " + std::to_string(elements_per_block) +
        " elements; use a larger block_size, or a grid-stride step (2 and later)");
  }
}

unsigned grid_stride_blocks(const void* kernel, int block_size, std::size_t n,
                            std::size_t elements_per_block, int threads_per_multiprocessor) {
  int per_multiprocessor = course::resident_blocks_per_multiprocessor(kernel, block_size);
  if (threads_per_multiprocessor > 0) {
    per_multiprocessor =
        std::min(per_multiprocessor, std::max(1, threads_per_multiprocessor / block_size));
  }
  const std::size_t capacity =
      static_cast<std::size_t>(per_multiprocessor) * course::multiprocessor_count();
  // A pass over at most as many values as the GPU holds blocks (the block sums of a previous
  // pass), or over two rounds of one block, is one block's work: any n takes at most two
  // passes, and a tiny input one.
  if (n <= std::max<std::size_t>(capacity, 2 * elements_per_block)) return 1;
  return static_cast<unsigned>(std::min<std::size_t>(course::ceil_div(n, elements_per_block),
                                                     capacity));
}

template <typename T>
long double cpu_sum(const T* values, std::size_t n) {
  long double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += values[i];
  return sum;
}

template <typename T>
long double cpu_magnitude(const T* values, std::size_t n) {
  long double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::fabs(static_cast<long double>(values[i]));
  return sum;
}

std::size_t summation_depth(std::size_t n, int block_size, int multiprocessors) {
  if (n <= 1) return 1;
  const std::size_t block = static_cast<std::size_t>(block_size);
  // The fewest blocks any step uses for n: one per multiprocessor once n is large enough
  // (elements per block at most 8 * block: 16-byte vectors of 4, two per thread and pass).
  const std::size_t blocks =
      std::min<std::size_t>(course::ceil_div(n, 8 * block), std::max(1, multiprocessors));
  const std::size_t per_thread = course::ceil_div(n, blocks * block);
  const std::size_t levels = static_cast<std::size_t>(std::ceil(std::log2(static_cast<double>(n))));
  // The block sums' own grid-stride adds in the last pass or block: at most 2048 threads per
  // multiprocessor, so at most multiprocessors * 2048 / block sums, shared by one block.
  const std::size_t partials_per_thread =
      course::ceil_div(static_cast<std::size_t>(std::max(1, multiprocessors)) * 2048 / block, block);
  // Sequential adds in a thread, the trees (at most 2 log2 n levels over all passes), the
  // head, the tail and a vector's components.
  return per_thread + partials_per_thread + 2 * levels + 16;
}

#define WARP_REDUCTION_REFERENCE_FOR(T)                                 \
  template long double cpu_sum<T>(const T*, std::size_t);              \
  template long double cpu_magnitude<T>(const T*, std::size_t);
WARP_REDUCTION_REFERENCE_FOR(int)
WARP_REDUCTION_REFERENCE_FOR(float)
WARP_REDUCTION_REFERENCE_FOR(double)

}  // namespace warp_reduction
