// GPU tests of course-common: buffers, poisoning, launch checks, timing, device attributes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"
#include "course/math.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"
#include "course/timing.hpp"

namespace {

__global__ void add_one(int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += 1;
}

// Writes values[first .. last) (which may run past either end) and sums values[0 .. reads).
__global__ void write_range(float* values, int first, int last) {
  const int i = first + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < last) values[i] = 1.0f;
}

__global__ void sum_first(const float* values, int reads, float* sum) {
  float total = 0.0f;
  for (int i = 0; i < reads; ++i) total += values[i];
  *sum = total;
}

// course/math.hpp in device code, as a kernel uses it (chapter 01, step 2): each thread computes
// the chunk length that covers n elements with blockDim.x threads, and checks the block size.
__global__ void chunk_of_every_thread(std::size_t n, std::size_t* chunk, int* power_of_two) {
  chunk[threadIdx.x] = course::ceil_div(n, blockDim.x);
  power_of_two[threadIdx.x] = course::is_power_of_two(blockDim.x) ? 1 : 0;
}

// These tests provoke CUDA errors on purpose; a sanitizer run would count them as bugs.
#define SKIP_UNDER_SANITIZER()                                                        \
  if (course::under_sanitizer()) GTEST_SKIP() << "provokes a CUDA error on purpose, " \
                                                 "which compute-sanitizer reports"

}  // namespace

TEST(DeviceBuffer, RoundTripsHostData) {
  const std::vector<int> host = course::random_ints(1025, -1000, 1000);
  const course::DeviceBuffer<int> device(host);
  EXPECT_EQ(device.size(), host.size());
  EXPECT_EQ(device.to_host(), host);
}

TEST(DeviceBuffer, PoisonMakesIntsMinusOneAndFloatsNan) {
  course::DeviceBuffer<int> ints(10);
  ints.fill_bytes(course::kPoisonByte);
  for (int v : ints.to_host()) EXPECT_EQ(v, -1);
  course::DeviceBuffer<float> floats(10);
  floats.fill_bytes(course::kPoisonByte);
  for (float v : floats.to_host()) EXPECT_TRUE(std::isnan(v));
}

TEST(DeviceBuffer, MovesOwnership) {
  course::DeviceBuffer<int> first(8);
  const int* pointer = first.data();
  course::DeviceBuffer<int> second = std::move(first);
  EXPECT_EQ(second.data(), pointer);
  EXPECT_EQ(first.data(), nullptr);
  EXPECT_EQ(first.size(), 0u);
}

TEST(DeviceBuffer, ThrowsOutOfDeviceMemoryForAnImpossibleSize) {
  SKIP_UNDER_SANITIZER();
  const std::size_t petabyte = std::size_t{1} << 50;
  EXPECT_THROW(course::DeviceBuffer<char> huge(petabyte), course::OutOfDeviceMemory);
  // The failure must not leak into the next launch check.
  course::DeviceBuffer<int> values(std::vector<int>{1, 2, 3});
  add_one<<<1, 32>>>(values.data(), 3);
  EXPECT_NO_THROW(COURSE_CHECK_LAUNCH("add_one"));
  EXPECT_EQ(values.to_host(), (std::vector<int>{2, 3, 4}));
}

TEST(DeviceBuffer, CopyFromHostRejectsAWrongSize) {
  course::DeviceBuffer<int> values(4);
  EXPECT_THROW(values.copy_from_host(std::vector<int>(3)), std::invalid_argument);
}

TEST(CheckLaunch, ReportsAnImpossibleBlockSize) {
  SKIP_UNDER_SANITIZER();
  course::DeviceBuffer<int> values(4);
  add_one<<<1, 2048>>>(values.data(), 4);  // more than 1024 threads per block
  try {
    COURSE_CHECK_LAUNCH("add_one");
    FAIL() << "the launch with 2048 threads was not reported";
  } catch (const course::CudaError& error) {
    // CUDA 12 says cudaErrorInvalidConfiguration, CUDA 13 cudaErrorInvalidValue.
    EXPECT_TRUE(error.code() == cudaErrorInvalidConfiguration ||
                error.code() == cudaErrorInvalidValue)
        << cudaGetErrorName(error.code());
    EXPECT_NE(std::string(error.what()).find("1024 threads"), std::string::npos);
  }
}

TEST(MathHelpers, GiveTheHostsAnswersInAKernel) {
  for (const int threads : {1, 3, 32, 96, 250, 1024}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1025},
                                (std::size_t{1} << 33) + 1}) {
      course::DeviceBuffer<std::size_t> chunk(threads);
      course::DeviceBuffer<int> power_of_two(threads);
      chunk.fill_bytes(course::kPoisonByte);
      power_of_two.fill_bytes(course::kPoisonByte);
      chunk_of_every_thread<<<1, threads>>>(n, chunk.data(), power_of_two.data());
      COURSE_CHECK_LAUNCH("chunk_of_every_thread");
      const std::size_t expected_chunk = course::ceil_div(n, static_cast<unsigned>(threads));
      const int expected_power = course::is_power_of_two(threads) ? 1 : 0;
      for (const std::size_t got : chunk.to_host()) {
        ASSERT_EQ(got, expected_chunk) << "n = " << n << ", " << threads << " threads";
      }
      for (const int got : power_of_two.to_host()) {
        ASSERT_EQ(got, expected_power) << threads << " threads";
      }
    }
  }
}

TEST(PinnedBuffer, HoldsWritableHostMemory) {
  course::PinnedBuffer<std::uint64_t> pinned(100);
  for (std::size_t i = 0; i < pinned.size(); ++i) pinned[i] = i;
  EXPECT_EQ(pinned[99], 99u);
}

TEST(EventTimer, MeasuresAPositiveTime) {
  course::DeviceBuffer<int> values(1 << 20);
  course::EventTimer timer;
  timer.start();
  add_one<<<(1 << 20) / 256, 256>>>(values.data(), 1 << 20);
  COURSE_CHECK_LAUNCH("add_one");
  timer.stop();
  EXPECT_GT(timer.elapsed_ms(), 0.0f);
}

TEST(L2Flusher, CoversTwiceTheL2) {
  course::L2Flusher flusher;
  EXPECT_GE(flusher.bytes(), 2u * static_cast<std::size_t>(course::query_device().l2_cache_bytes));
  EXPECT_NO_THROW(flusher.flush());
  COURSE_CHECK(cudaDeviceSynchronize());
}

TEST(QueryDevice, ReadsPlausibleAttributes) {
  const course::DeviceInfo info = course::query_device();
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.compute_capability_major, 7);
  EXPECT_GT(info.multiprocessor_count, 0);
  // The nominal peak is 0 where the driver reports no memory clock (some WSL2 setups); where it
  // reports one, any GPU the course supports has tens of GB/s at least.
  const double peak = info.peak_dram_gb_per_s();
  EXPECT_TRUE(peak == 0.0 || (peak > 10.0 && peak < 100000.0)) << peak << " GB/s";
}

// The grid-sizing helpers agree with the CUDA calls they remember, and stay right on the
// second (remembered) call: 1024-thread blocks of add_one fit at most twice on any SM.
TEST(GridHelpers, AgreeWithTheOccupancyCalculator) {
  const course::DeviceInfo info = course::query_device();
  EXPECT_EQ(course::multiprocessor_count(), info.multiprocessor_count);
  EXPECT_EQ(course::multiprocessor_count(), info.multiprocessor_count);
  const void* kernel = reinterpret_cast<const void*>(add_one);
  for (int block_size : {32, 256, 1024}) {
    int expected = 0;
    COURSE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected, add_one, block_size, 0));
    EXPECT_EQ(course::resident_blocks_per_multiprocessor(kernel, block_size), expected)
        << block_size << " threads";
    EXPECT_EQ(course::resident_blocks_per_multiprocessor(kernel, block_size), expected)
        << block_size << " threads, remembered";
  }
  EXPECT_LE(course::resident_blocks_per_multiprocessor(kernel, 1024), 2);
}

TEST(GuardedBuffer, ReportsWritesPastEitherEndWithTheirDistance) {
  if (course::under_sanitizer()) GTEST_SKIP() << "no margins under a sanitizer (by design)";
  course::GuardedBuffer<float> values(100);
  write_range<<<1, 128>>>(values.data(), 0, 100);
  COURSE_CHECK_LAUNCH("write_range");
  EXPECT_TRUE(values.check_margins().ok());
  write_range<<<1, 128>>>(values.data(), 98, 103);  // three past the end
  write_range<<<1, 128>>>(values.data(), -2, 0);    // two before the start
  COURSE_CHECK_LAUNCH("write_range");
  const course::MarginReport report = values.check_margins();
  EXPECT_EQ(report.written_after, 3u);
  EXPECT_EQ(report.farthest_after, 3u);
  EXPECT_EQ(report.written_before, 2u);
  EXPECT_EQ(report.farthest_before, 2u);
  EXPECT_NE(report.text("P").find("wrote 3 element(s) past the end of P"), std::string::npos)
      << report.text("P");
}

TEST(GuardedBuffer, AReadPastTheEndTurnsASumIntoNan) {
  if (course::under_sanitizer()) GTEST_SKIP() << "no margins under a sanitizer (by design)";
  const course::GuardedBuffer<float> values(std::vector<float>(10, 0.5f));
  course::DeviceBuffer<float> sum(1);
  sum_first<<<1, 1>>>(values.data(), 10, sum.data());
  COURSE_CHECK_LAUNCH("sum_first");
  EXPECT_EQ(sum.to_host()[0], 5.0f);
  sum_first<<<1, 1>>>(values.data(), 11, sum.data());
  COURSE_CHECK_LAUNCH("sum_first");
  EXPECT_TRUE(std::isnan(sum.to_host()[0]));
}

TEST(GuardedBuffer, KeepsTheAlignmentOfAPlainAllocation) {
  const course::GuardedBuffer<double> values(33);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(values.data()) % 256, 0u);
  EXPECT_EQ(values.to_host().size(), 33u);
}
