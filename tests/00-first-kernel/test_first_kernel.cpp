// GPU tests of chapter 00 against the solution (suite "solution") and the exercise (suite
// "exercise"). Each test suite judges one step (its cases are named step1 ... step6), with the
// other steps' pieces ready-made (the solution's).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/testing.hpp"
#include "first_kernel_checks.hpp"

namespace first_kernel::testing {
namespace {

// A test that provokes a CUDA error on purpose: under a compute-sanitizer setup the sanitizer
// rightly reports that error, so the test leaves it to the plain run.
const char* const kProvokesAnError =
    "provokes a CUDA error on purpose, which the sanitizer reports; the plain run checks it";
// A grid of 2^31 threads, or 2^31 elements: hours under compute-sanitizer's instrumentation.
const char* const kTooLargeForTheSanitizer =
    "a grid past INT_MAX is too large for compute-sanitizer; the plain run checks it";

class FirstKernel : public ::testing::TestWithParam<Implementation> {
 protected:
  Steps steps() const { return steps_of(GetParam()); }
  std::string file(const char* step_file) const { return source_file(GetParam(), step_file); }
};
class DeviceQuery : public FirstKernel {};  // step 1
class Memory : public FirstKernel {};       // step 2
class Kernel : public FirstKernel {};       // step 3
class Launch : public FirstKernel {};       // step 4
class Timing : public FirstKernel {};       // step 5
class InFlight : public FirstKernel {};     // step 6

TEST_P(DeviceQuery, MatchesTheDeviceAttributes) {
  const DeviceSummary got = steps().query_device();
  const course::DeviceInfo expected = course::query_device();
  const std::string where = file("step1_device_query.cu") + ": ";
  int warp_size = 0, max_threads = 0;
  COURSE_CHECK(cudaDeviceGetAttribute(&warp_size, cudaDevAttrWarpSize, expected.ordinal));
  COURSE_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock,
                                      expected.ordinal));
  EXPECT_EQ(got.ordinal, expected.ordinal) << where << "the ordinal of the current GPU";
  EXPECT_EQ(got.multiprocessor_count, expected.multiprocessor_count) << where << "SM count";
  EXPECT_EQ(got.warp_size, warp_size) << where << "warp size";
  EXPECT_EQ(got.compute_capability_major, expected.compute_capability_major)
      << where << "compute capability (major)";
  EXPECT_EQ(got.compute_capability_minor, expected.compute_capability_minor)
      << where << "compute capability (minor)";
  EXPECT_EQ(got.max_threads_per_block, max_threads) << where << "threads per block";
  EXPECT_EQ(got.memory_clock_khz, expected.memory_clock_khz) << where << "memory clock (kHz)";
  EXPECT_EQ(got.memory_bus_width_bits, expected.memory_bus_width_bits)
      << where << "memory bus width (bits)";
}

TEST_P(DeviceQuery, PeakBandwidthFromClockAndBusWidth) {
  const DeviceSummary got = steps().query_device();
  const double expected =
      course::peak_dram_bandwidth_gb_per_s(got.memory_clock_khz, got.memory_bus_width_bits);
  EXPECT_NEAR(got.peak_dram_gb_per_s, expected, 1e-6 * expected)
      << file("step1_device_query.cu") << ": peak DRAM bandwidth for a " << got.memory_clock_khz
      << " kHz memory clock and a " << got.memory_bus_width_bits << "-bit bus, in GB/s";
}

TEST_P(Memory, RoundTripReturnsTheData) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    const std::vector<float> in = random_floats(n, 7);
    std::vector<float> out(n, -99.0f);
    steps().round_trip(in.data(), out.data(), n);
    EXPECT_EQ(out, in) << file("step2_memory.cu") << ": " << n
                       << " floats came back different (or not at all)";
  }
}

TEST_P(Memory, FailedAllocationIsReported) {
  if (course::under_sanitizer()) GTEST_SKIP() << kProvokesAnError;
  // 2^42 floats, 16 TiB: no GPU has that much memory, so cudaMalloc fails.
  std::vector<float> in(4, 1.0f), out(4, 0.0f);
  bool thrown = false;
  try {
    steps().round_trip(in.data(), out.data(), std::size_t{1} << 42);
  } catch (const course::CudaError&) {
    thrown = true;
  }
  (void)cudaGetLastError();  // a failure nobody asked about must not reach the next test
  EXPECT_TRUE(thrown) << file("step2_memory.cu") << ": asked to copy 16 TiB, round_trip returned "
                      << "without an error. cudaMalloc cannot have succeeded: check what every "
                      << "CUDA call returns (COURSE_CHECK)";
}

TEST_P(Kernel, MatchesCpuWithACorrectGrid) {
  std::vector<int> sizes = {1, 31, 32, 33, 1000, 4096};
  if (!course::under_sanitizer()) sizes.push_back((1 << 20) + 7);
  for (const int threads : {32, 256, 1024}) {
    for (const int n : sizes) {
      EXPECT_TRUE(kernel_matches_cpu(steps().saxpy_kernel(), n, threads,
                                     file("step3_saxpy.cu")));
    }
  }
}

// The grid for n = INT_MAX has more than 2^31 threads: their element numbers must not wrap.
TEST_P(Kernel, IndexDoesNotWrapPastIntMax) {
  if (course::under_sanitizer()) GTEST_SKIP() << kTooLargeForTheSanitizer;
  std::string skipped;
  const ::testing::AssertionResult result =
      index_does_not_wrap(steps().saxpy_kernel(), 1, file("step3_saxpy.cu"), &skipped);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  EXPECT_TRUE(result);
}

TEST_P(Kernel, MatchesCpuAtIntMax) {
  if (course::under_sanitizer()) GTEST_SKIP() << kTooLargeForTheSanitizer;
  std::string skipped;
  const ::testing::AssertionResult result =
      matches_cpu_at_int_max(steps().saxpy_kernel(), 1, file("step3_saxpy.cu"), &skipped);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  EXPECT_TRUE(result);
}

TEST_P(Launch, SaxpyMatchesCpuWithTheSolutionKernel) {
  std::vector<int> sizes = {0, 1, 33, 1000};
  if (!course::under_sanitizer()) sizes.push_back((1 << 20) + 7);
  for (const int threads : {32, 256, 1024}) {
    for (const int n : sizes) {
      const std::vector<float> x = random_floats(n, 8), y = random_floats(n, 9);
      EXPECT_TRUE(matches(steps().saxpy(solution::saxpy_kernel(), -1.5f, x, y, threads),
                          cpu_saxpy(-1.5f, x, y),
                          file("step4_launch.cu") + ": saxpy with n = " + std::to_string(n) +
                              " and " + std::to_string(threads) + " threads per block"));
    }
  }
}

TEST_P(Launch, BadLaunchIsReported) {
  if (course::under_sanitizer()) GTEST_SKIP() << kProvokesAnError;
  EXPECT_TRUE(bad_launch_is_reported(steps().saxpy, file("step4_launch.cu")));
}

TEST_P(Launch, KernelGetsGpuPointers) {
  EXPECT_TRUE(kernel_gets_gpu_pointers(steps().saxpy, file("step4_launch.cu")));
}

// Step 5, timing the solution's kernel and configuration.
TEST_P(Timing, TimesTheKernelItLaunches) {
  const int n = 1000;
  const std::vector<float> x = random_floats(n, 12), y = random_floats(n, 13);
  course::DeviceBuffer<float> x_device(x), y_device(y);
  const float ms = steps().time_launch_ms(solution::saxpy_kernel(),
                                          solution::launch_config(n, 256), n, 2.0f,
                                          x_device.data(), y_device.data());
  EXPECT_GT(ms, 0.0f) << file("step5_timing.cu") << ": a launch took " << ms << " ms";
  EXPECT_TRUE(matches(y_device.to_host(), cpu_saxpy(2.0f, x, y),
                      file("step5_timing.cu") + ": y after the timed launch"));
}

TEST_P(Timing, TimeGrowsWithN) {
  if (course::under_sanitizer()) {
    GTEST_SKIP() << "times under compute-sanitizer are its instrumentation's; the plain run "
                    "checks them";
  }
  // The shortest of three launches: the first pays for loading the kernel, and another
  // process's kernels on the same GPU can only add to a time.
  const auto shortest_ms = [&](int n) {
    course::DeviceBuffer<float> x(random_floats(n, 10)), y(random_floats(n, 11));
    float shortest = std::numeric_limits<float>::infinity();
    for (int launch = 0; launch < 3; ++launch) {
      shortest = std::min(shortest, steps().time_launch_ms(solution::saxpy_kernel(),
                                                           solution::launch_config(n, 256), n,
                                                           2.0f, x.data(), y.data()));
    }
    return shortest;
  };
  const float small_ms = shortest_ms(1 << 12);
  for (const int large : {1 << 22, 1 << 26}) {
    const float large_ms = shortest_ms(large);
    EXPECT_GT(large_ms, small_ms)
        << file("step5_timing.cu") << ": " << small_ms << " ms for 2^12 floats, " << large_ms
        << " ms for " << large << ": are the events recorded around the launch, and is the "
        << "time read only after the second one has happened?";
  }
}

TEST_P(Timing, BadLaunchIsReported) {
  if (course::under_sanitizer()) GTEST_SKIP() << kProvokesAnError;
  course::DeviceBuffer<float> x(random_floats(1000, 14)), y(random_floats(1000, 15));
  bool thrown = false;
  try {
    steps().time_launch_ms(solution::saxpy_kernel(), LaunchConfig{dim3(1), dim3(2048)}, 1000,
                           2.0f, x.data(), y.data());
  } catch (const course::CudaError&) {
    thrown = true;
  }
  (void)cudaGetLastError();
  EXPECT_TRUE(thrown) << file("step5_timing.cu") << ": a launch with 2048 threads per block "
                      << "(more than any GPU runs) was timed as if it had run: check the launch";
}

// Step 6: kElementsPerThread elements per thread, launched with the grid that covers n so.
TEST_P(InFlight, MatchesCpuWithACorrectGrid) {
  std::vector<int> sizes = {1, 2, 3, 31, 32, 33, 127, 128, 129, 1000, 1023, 1024, 1025, 4099};
  if (!course::under_sanitizer()) sizes.push_back((1 << 20) + 7);
  for (const int threads : {32, 256, 1024}) {
    for (const int n : sizes) {
      EXPECT_TRUE(kernel_matches_cpu(steps().saxpy_in_flight_kernel(), n, threads,
                                     file("step6_more_in_flight.cu"), kElementsPerThread));
    }
  }
}

TEST_P(InFlight, IndexDoesNotWrapPastIntMax) {
  if (course::under_sanitizer()) GTEST_SKIP() << kTooLargeForTheSanitizer;
  std::string skipped;
  const ::testing::AssertionResult result =
      index_does_not_wrap(steps().saxpy_in_flight_kernel(), kElementsPerThread,
                          file("step6_more_in_flight.cu"), &skipped);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  EXPECT_TRUE(result);
}

TEST_P(InFlight, MatchesCpuAtIntMax) {
  if (course::under_sanitizer()) GTEST_SKIP() << kTooLargeForTheSanitizer;
  std::string skipped;
  const ::testing::AssertionResult result =
      matches_cpu_at_int_max(steps().saxpy_in_flight_kernel(), kElementsPerThread,
                             file("step6_more_in_flight.cu"), &skipped);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  EXPECT_TRUE(result);
}

COURSE_STEP_TESTS(DeviceQuery, Implementation, 1);
COURSE_STEP_TESTS(Memory, Implementation, 2);
COURSE_STEP_TESTS(Kernel, Implementation, 3);
COURSE_STEP_TESTS(Launch, Implementation, 4);
COURSE_STEP_TESTS(Timing, Implementation, 5);
COURSE_STEP_TESTS(InFlight, Implementation, 6);

}  // namespace
}  // namespace first_kernel::testing
