// Host-side pieces shared by every implementation of chapter 09: the workspace, the argument
// checks, the watchdog's report, and the CPU reference with its summation depth.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "course/random.hpp"
#include "scan.cuh"

namespace scan {

void Workspace::begin_call() {
  launches_ = 0;
  if (poison_) {
    for (auto& sums : sums_) sums.fill_bytes(course::kPoisonByte);
  }
}

void* Workspace::sums(int level, std::size_t count) {
  if (sums_.size() <= static_cast<std::size_t>(level)) sums_.resize(level + 1);
  auto& buffer = sums_[level];
  if (buffer.size() < count) {
    buffer = course::DeviceBuffer<std::uint32_t>(count);
    if (poison_) buffer.fill_bytes(course::kPoisonByte);
  }
  return buffer.data();
}

LookbackState Workspace::lookback(std::size_t tiles) {
  // Word 0 holds the counter (its low half); words 1 ... tiles the status words.
  if (lookback_.size() < tiles + 1) {
    lookback_ = course::DeviceBuffer<unsigned long long>(tiles + 1);
    lookback_.fill_bytes(0);
  }
  LookbackState state;
  state.counter = reinterpret_cast<unsigned*>(lookback_.data());
  state.status = lookback_.data() + 1;
  state.bytes = (tiles + 1) * sizeof(unsigned long long);
  return state;
}

void check_arguments(const char* step, const void* input, const void* output, long long n,
                     bool vectors) {
  const std::string where = std::string("scan::") + step + ": ";
  if (n < 0) {
    throw std::invalid_argument(where + "n = " + std::to_string(n) +
                                " is negative; pass the number of elements to scan (0 or more)");
  }
  if (n > kMaxCount) {
    throw std::invalid_argument(where + "n = " + std::to_string(n) + " is more than 2^32 = " +
                                std::to_string(kMaxCount) +
                                ", the most this chapter's steps scan; scan it in parts");
  }
  const auto check_pointer = [&](const void* pointer, const char* name) {
    if (pointer == nullptr && n > 0) {
      throw std::invalid_argument(where + name + " is a null pointer but n = " +
                                  std::to_string(n) + "; pass a device array of n elements");
    }
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    if (address % 4 != 0) {
      throw std::invalid_argument(where + name + " is not aligned to its element type (4 "
                                  "bytes); pass a pointer to an element of a cudaMalloc'd array");
    }
    if (vectors && address % 16 != 0) {
      throw std::invalid_argument(
          where + name + " is not aligned to 16 bytes, and this step reads and writes 16-byte "
          "vectors; pass the start of a cudaMalloc'd array (256-byte aligned), or an offset that "
          "is a multiple of 4 elements");
    }
  };
  check_pointer(input, "input");
  check_pointer(output, "output");
}

std::string watchdog_report() {
  const course::WatchdogReport report = course::watchdog_report();
  if (report.happened == 0) return "";
  // what[0] and what[1]: the block's tile and the tile it waited for (give_up_if_too_long).
  return "block " + std::to_string(report.block_x) + ", scanning tile " +
         std::to_string(report.what[0]) + ", waited for the status word of tile " +
         std::to_string(report.what[1]);
}

std::vector<int> cpu_scan(const std::vector<int>& input, std::size_t n) {
  std::vector<int> scan(n);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum += static_cast<std::uint32_t>(input[i]);  // modulo 2^32, as the GPU adds
    scan[i] = static_cast<int>(sum);
  }
  return scan;
}

void cpu_scan(const std::vector<float>& input, std::size_t n, std::vector<double>& scan,
              std::vector<double>& magnitude) {
  scan.resize(n);
  magnitude.resize(n);
  double sum = 0, size = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum += input[i];
    size += std::fabs(static_cast<double>(input[i]));
    scan[i] = sum;
    magnitude[i] = size;
  }
}

std::size_t scan_depth(std::size_t i) {
  // Two more roundings: the double reference's own, and the rounding to float of the exact sum.
  return std::min(i + 1, 64 + i / 256) + 2;
}

}  // namespace scan
