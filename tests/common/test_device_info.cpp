#include <gtest/gtest.h>

#include <cstdlib>

#include "course/device_info.hpp"
#include "course/errors.hpp"

// 2 x memory clock x bus width / 8. Attribute values as the H100 SXM and A100 report them.
TEST(PeakDramBandwidth, MatchesTheDoubleDataRateFormula) {
  EXPECT_NEAR(course::peak_dram_bandwidth_gb_per_s(2619000, 5120), 3352.32, 0.01);
  EXPECT_NEAR(course::peak_dram_bandwidth_gb_per_s(1215000, 5120), 1555.2, 0.01);
}

TEST(PeakDramBandwidth, IsZeroWithoutAMemoryClock) {
  EXPECT_EQ(course::peak_dram_bandwidth_gb_per_s(0, 5120), 0.0);
}

TEST(DeviceInfo, PeakUsesItsOwnAttributes) {
  course::DeviceInfo info;
  info.memory_clock_khz = 1000000;
  info.memory_bus_width_bits = 256;
  EXPECT_NEAR(info.peak_dram_gb_per_s(), 64.0, 1e-9);
}

// Without a GPU, the grid-sizing helpers (which step launchers call before any kernel) throw
// NoGpuError, which the course reports as "no GPU", never a crash. CI has no GPU; on a machine
// with one, the test "grid helpers without a GPU" runs this with the devices hidden.
TEST(WithoutAGpu, GridHelpersThrowNoGpuError) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const bool hidden = visible != nullptr && *visible == '\0';
  if (!hidden && course::gpu_available()) {
    GTEST_SKIP() << "a GPU is visible; 'grid helpers without a GPU' runs this with "
                    "CUDA_VISIBLE_DEVICES=''";
  }
  ASSERT_FALSE(course::gpu_available()) << "CUDA_VISIBLE_DEVICES='' should hide every GPU";
  EXPECT_THROW(course::multiprocessor_count(), course::NoGpuError);
  EXPECT_THROW(course::resident_blocks_per_multiprocessor(nullptr, 128), course::NoGpuError);
}
