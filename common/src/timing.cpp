#include "course/timing.hpp"

#include <algorithm>

#include "course/device_info.hpp"

namespace course {

EventTimer::EventTimer() {
  COURSE_CHECK(cudaEventCreate(&start_));
  COURSE_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::start(cudaStream_t stream) { COURSE_CHECK(cudaEventRecord(start_, stream)); }

void EventTimer::stop(cudaStream_t stream) { COURSE_CHECK(cudaEventRecord(stop_, stream)); }

float EventTimer::elapsed_ms() const {
  COURSE_CHECK(cudaEventSynchronize(stop_));
  float milliseconds = 0.0f;
  COURSE_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
  return milliseconds;
}

L2Flusher::L2Flusher()
    : scratch_(2 * static_cast<std::size_t>(std::max(query_device().l2_cache_bytes, 1 << 20))) {}

void L2Flusher::flush(cudaStream_t stream) {
  COURSE_CHECK(cudaMemsetAsync(scratch_.data(), 0x5A, scratch_.bytes(), stream));
}

}  // namespace course
