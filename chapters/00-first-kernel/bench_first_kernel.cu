// Chapter 00 benchmark: SAXPY (exercise and solution; step 3's kernel, one element per thread,
// and step 6's, kElementsPerThread per thread) against a device-to-device cudaMemcpy of the same
// array size, at n = 2^26 floats. SAXPY moves 12 bytes per element (reads x and y, writes y), the
// copy 8 (reads one array, writes the other): compare their GB/s, not their times. "%peak" is of
// the nominal DRAM bandwidth, "%copy" of the copy's GB/s in the same run.
// And the contrast of steps.json: "Contrast/step6_store_before_next_load" is step 6's kernel
// with one loop that stores each element before it reads the next (one element in flight).
//   meson test -C build --benchmark --suite 00-first-kernel --verbose
#include <cmath>
#include <string>
#include <vector>

#include "course/benchmark.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::contrast::step6_store_before_next_load {
SaxpyKernel saxpy_in_flight_kernel();
}

namespace {

constexpr int kLog2N = 26;
constexpr int kN = 1 << kLog2N;
constexpr double kSaxpyBytes = 12.0 * kN;
constexpr double kCopyBytes = 8.0 * kN;

course::bench::ReferenceRates<int>& copy_rates() {
  static course::bench::ReferenceRates<int> rates;
  return rates;
}

// The implementation's kernel and launch configuration, run once on 1000 elements: is it
// right? (An unfinished exercise is not timed.)
bool saxpy_is_correct(first_kernel::SaxpyKernel kernel,
                      first_kernel::LaunchConfig (*config_of)(int, int)) {
  if (course::bench::profiling()) return true;  // see course::bench::profiling()
  if (kernel == nullptr) return false;
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.25f * (i % 7);
    y[i] = 1.0f - 0.125f * (i % 5);
  }
  course::DeviceBuffer<float> x_device(x), y_device(y);
  try {
    const first_kernel::LaunchConfig config = config_of(n, 256);
    kernel<<<config.grid, config.block>>>(n, 3.0f, x_device.data(), y_device.data());
    COURSE_CHECK_LAUNCH("saxpy kernel");
    COURSE_CHECK(cudaDeviceSynchronize());
  } catch (const course::CudaError&) {
    return false;
  }
  const std::vector<float> got = y_device.to_host();
  for (int i = 0; i < n; ++i) {
    if (std::fabs(got[i] - (3.0f * x[i] + y[i])) > 1e-5f) return false;
  }
  return true;
}

void register_saxpy_row(const std::string& name, first_kernel::SaxpyKernel kernel,
                        first_kernel::LaunchConfig (*config_of)(int, int), bool correct,
                        const std::string& why) {
  course::bench::sampled(benchmark::RegisterBenchmark(
      (name + "/n=2^" + std::to_string(kLog2N)).c_str(),
      [=](benchmark::State& state) {
        if (!course::bench::skip_unless_correct(state, correct, why)) return;
        course::DeviceBuffer<float> x(kN), y(kN);
        x.fill_bytes(0);
        y.fill_bytes(0);
        const first_kernel::LaunchConfig config = config_of(kN, 256);
        const course::bench::GpuTiming timing = course::bench::time_gpu(state, [&] {
          kernel<<<config.grid, config.block>>>(kN, 2.0f, x.data(), y.data());
          COURSE_CHECK_LAUNCH("saxpy kernel");
        });
        course::bench::set_bandwidth_counters(state, timing, kSaxpyBytes);
        const double copy = copy_rates().median(kN);
        if (copy > 0.0 && timing.mean_seconds > 0.0) {
          state.counters["%copy"] = 100.0 * (kSaxpyBytes / timing.mean_seconds / 1e9) / copy;
        }
      }), 50)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  // The vendor row: cudaMemcpy of one array of n floats into another on the GPU.
  sampled(benchmark::RegisterBenchmark(
      ("DeviceToDeviceCopy/n=2^" + std::to_string(kLog2N)).c_str(),
      [](benchmark::State& state) {
        DeviceBuffer<float> source(kN), destination(kN);
        source.fill_bytes(0x3C);
        const GpuTiming timing = time_gpu(state, [&] {
          COURSE_CHECK(cudaMemcpyAsync(destination.data(), source.data(), kN * sizeof(float),
                                       cudaMemcpyDeviceToDevice));
        });
        set_bandwidth_counters(state, timing, kCopyBytes);
        if (timing.mean_seconds > 0.0) copy_rates().add(kN, kCopyBytes / timing.mean_seconds / 1e9);
      }), 50)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);

  namespace fk = first_kernel;
  const std::string wrong =
      " is not SAXPY yet; its tests say why: ./course test 00.3 and ./course test 00.4";
  register_saxpy_row("Exercise/saxpy", fk::exercise::saxpy_kernel(), fk::exercise::launch_config,
                     saxpy_is_correct(fk::exercise::saxpy_kernel(), fk::exercise::launch_config),
                     "the exercise" + wrong);
  register_saxpy_row("Solution/saxpy", fk::solution::saxpy_kernel(), fk::solution::launch_config,
                     true, "");

  // Step 6: kElementsPerThread elements per thread, on the grid that covers n so.
  register_saxpy_row("Exercise/saxpy_in_flight", fk::exercise::saxpy_in_flight_kernel(),
                     fk::in_flight_launch_config,
                     saxpy_is_correct(fk::exercise::saxpy_in_flight_kernel(),
                                      fk::in_flight_launch_config),
                     "the exercise's step 6 is not SAXPY yet; its tests say why: ./course test "
                     "00.6");
  register_saxpy_row("Solution/saxpy_in_flight", fk::solution::saxpy_in_flight_kernel(),
                     fk::in_flight_launch_config, true, "");
  register_saxpy_row("Contrast/step6_store_before_next_load",
                     fk::contrast::step6_store_before_next_load::saxpy_in_flight_kernel(),
                     fk::in_flight_launch_config, true, "");
}
