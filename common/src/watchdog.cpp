// The host side of course/watchdog.hpp: the mapped report and the budget.
#include "course/watchdog.hpp"

#include <cuda_runtime.h>

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
