// GPU timing: CUDA events around a region, and an L2 flush so that every timed sample starts
// with a cold cache (otherwise small inputs are timed out of L2, not DRAM).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "course/device_buffer.hpp"

namespace course {

// Times GPU work on one stream: start(); ...launches...; stop(); elapsed_ms().
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream = nullptr);
  void stop(cudaStream_t stream = nullptr);
  // Waits for the stop event, then returns the milliseconds between the two events.
  float elapsed_ms() const;

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// Overwrites a buffer twice the size of L2, evicting whatever a previous sample left there.
class L2Flusher {
 public:
  L2Flusher();
  void flush(cudaStream_t stream = nullptr);
  std::size_t bytes() const noexcept { return scratch_.bytes(); }

 private:
  DeviceBuffer<unsigned char> scratch_;
};

}  // namespace course
