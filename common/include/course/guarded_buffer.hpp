// A device array between two guard margins, so that out-of-bounds accesses show in a plain
// test run:
//  - reads: the margins hold guard_value<T>() (NaN for float, double, __half and
//    __nv_bfloat16, an odd and unusual number for integers), so a read past either end turns a
//    sum or a product into NaN or a visibly wrong number;
//  - writes: check_margins() finds every margin element that changed and says where
//    ("wrote 3 elements past the end of P").
// Under compute-sanitizer (COURSE_UNDER_SANITIZER=1) the margins are left out: with an
// exact-size allocation memcheck sees the out-of-bounds access itself, which the margins would
// make legal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/testing.hpp"

namespace course {

// What the margins hold. Integers: odd (so no number of stray reads adds up to a multiple of
// 2^32) and far outside the course's test data ranges.
template <typename T>
T guard_value();
inline constexpr int kGuardInt = 0x5EADBEEF;

// For integer sums: how many reads of the guard value (k times kGuardInt, modulo 2^32) make up
// `difference` = got - expected, 1 to 256, or 0 when no such count does.
int guard_reads_explaining(long long difference);

// The margin elements that no longer hold the guard value after a run.
struct MarginReport {
  std::size_t written_before = 0;  // changed elements in the margin before the array
  std::size_t written_after = 0;   // ... and after it
  std::size_t farthest_before = 0;  // 1: the element just before the first one
  std::size_t farthest_after = 0;   // 1: the element just after the last one
  bool ok() const noexcept { return written_before == 0 && written_after == 0; }
  // "wrote 3 elements past the end of P (up to 3 after its last element)"; "" when ok().
  std::string text(const std::string& array_name) const;
};

// Elements of margin on each side unless a test asks for more: 64 KiB, a multiple of 256 bytes
// so that data() keeps cudaMalloc's alignment (vector loads behave as on a plain allocation).
template <typename T>
constexpr std::size_t default_margin_elements() {
  return (std::size_t{64} << 10) / sizeof(T);
}

template <typename T>
class GuardedBuffer {
 public:
  GuardedBuffer() = default;  // empty: no allocation, no CUDA call
  explicit GuardedBuffer(std::size_t count,
                         std::size_t margin_elements = default_margin_elements<T>())
      : count_(count),
        margin_(count == 0 || under_sanitizer() ? 0 : aligned_margin(margin_elements)) {
    if (count_ == 0) return;
    storage_ = DeviceBuffer<T>(count_ + 2 * margin_);
    if (margin_ > 0) {
      const std::vector<T> guards(margin_, guard_value<T>());
      COURSE_CHECK(cudaMemcpy(storage_.data(), guards.data(), margin_ * sizeof(T),
                              cudaMemcpyHostToDevice));
      COURSE_CHECK(cudaMemcpy(storage_.data() + margin_ + count_, guards.data(),
                              margin_ * sizeof(T), cudaMemcpyHostToDevice));
    }
  }
  explicit GuardedBuffer(const std::vector<T>& host,
                         std::size_t margin_elements = default_margin_elements<T>())
      : GuardedBuffer(host.size(), margin_elements) {
    copy_from_host(host);
  }

  T* data() noexcept { return count_ > 0 ? storage_.data() + margin_ : nullptr; }
  const T* data() const noexcept { return count_ > 0 ? storage_.data() + margin_ : nullptr; }
  std::size_t size() const noexcept { return count_; }
  std::size_t margin() const noexcept { return margin_; }

  void copy_from_host(const std::vector<T>& host) {
    if (host.size() != count_) {
      throw std::invalid_argument("GuardedBuffer::copy_from_host: the host vector has " +
                                  std::to_string(host.size()) + " elements, the buffer " +
                                  std::to_string(count_));
    }
    if (count_ > 0) {
      COURSE_CHECK(cudaMemcpy(data(), host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
    }
  }

  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    if (count_ > 0) {
      COURSE_CHECK(cudaMemcpy(host.data(), data(), count_ * sizeof(T), cudaMemcpyDeviceToHost));
    }
    return host;
  }

  // Fills the array (not the margins) with `value` bytes: 0xFF makes unwritten outputs NaN / -1.
  void fill_bytes(unsigned char value) {
    if (count_ > 0) COURSE_CHECK(cudaMemset(data(), value, count_ * sizeof(T)));
  }

  MarginReport check_margins() const {
    MarginReport report;
    if (margin_ == 0) return report;
    std::vector<T> before(margin_), after(margin_);
    COURSE_CHECK(cudaMemcpy(before.data(), storage_.data(), margin_ * sizeof(T),
                            cudaMemcpyDeviceToHost));
    COURSE_CHECK(cudaMemcpy(after.data(), storage_.data() + margin_ + count_,
                            margin_ * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < margin_; ++i) {
      if (!holds_guard(before[i])) {
        ++report.written_before;
        report.farthest_before = std::max(report.farthest_before, margin_ - i);
      }
      if (!holds_guard(after[i])) {
        ++report.written_after;
        report.farthest_after = i + 1;
      }
    }
    return report;
  }

 private:
  static std::size_t aligned_margin(std::size_t elements) {
    const std::size_t bytes = (elements * sizeof(T) + 255) / 256 * 256;
    return bytes / sizeof(T);
  }
  static bool holds_guard(const T& value);

  std::size_t count_ = 0;
  std::size_t margin_ = 0;
  DeviceBuffer<T> storage_;
};

// Bitwise comparison: NaN != NaN, so floats are compared by their bytes.
bool same_bytes(const void* a, const void* b, std::size_t bytes) noexcept;

template <typename T>
bool GuardedBuffer<T>::holds_guard(const T& value) {
  const T guard = guard_value<T>();
  return same_bytes(&value, &guard, sizeof(T));
}

}  // namespace course
