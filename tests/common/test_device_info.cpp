#include <gtest/gtest.h>

#include "course/device_info.hpp"

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
