// The host side of course/watchdog.hpp: the mapped report and the budget.
#include "course/watchdog.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "course/errors.hpp"
#include "course/testing.hpp"

namespace course {

namespace {

// Page-locked host memory that the GPU writes through (mapped), allocated once per process.
WatchdogReport* mapped_report() {
  static WatchdogReport* report = [] {
    void* host = nullptr;
    COURSE_CHECK(cudaHostAlloc(&host, sizeof(WatchdogReport), cudaHostAllocMapped));
    return static_cast<WatchdogReport*>(host);
  }();
  return report;
}

}  // namespace

Watchdog arm_watchdog() {
  static const Watchdog armed = [] {
    void* device_report = nullptr;
    COURSE_CHECK(cudaHostGetDevicePointer(&device_report, mapped_report(), 0));
    int device = 0, clock_khz = 0;
    COURSE_CHECK(cudaGetDevice(&device));
    COURSE_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    const long long seconds = kWatchdogSeconds * (under_sanitizer() ? 25 : 1);
    return Watchdog{seconds * clock_khz * 1000LL, static_cast<WatchdogReport*>(device_report)};
  }();
  *mapped_report() = WatchdogReport{};
  return armed;
}

void synchronize_or_stop(const std::string& who, const std::string& what_to_check,
                         const std::string& file) {
  const int seconds = kHangSeconds * (under_sanitizer() ? 10 : 1);  // instrumented: slower
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (cudaStreamQuery(nullptr) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "\n%s: the kernel has not finished after %d s. %s The tests stop "
                   "here.\n  Edit: %s\n", who.c_str(), seconds, what_to_check.c_str(),
                   file.c_str());
      std::fflush(stderr);
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  COURSE_CHECK(cudaDeviceSynchronize());  // the work's own error, if any
}

WatchdogReport watchdog_report() {
  const volatile WatchdogReport* report = mapped_report();
  WatchdogReport copy{};
  copy.happened = report->happened;
  copy.block_x = report->block_x;
  copy.block_y = report->block_y;
  copy.warp = report->warp;
  for (int i = 0; i < 3; ++i) copy.what[i] = report->what[i];
  return copy;
}

}  // namespace course
