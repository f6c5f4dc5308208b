#include <gtest/gtest.h>

#include "course/benchmark.hpp"

TEST(Summarize, ReportsMeanAndMedianOfTheSamples) {
  const course::bench::GpuTiming timing = course::bench::summarize({3.0, 1.0, 2.0, 10.0, 4.0}, 5);
  EXPECT_DOUBLE_EQ(timing.mean_seconds, 4.0);
  EXPECT_DOUBLE_EQ(timing.median_seconds, 3.0);
  EXPECT_EQ(timing.iterations, 5);
}

TEST(Summarize, IsZeroWithoutSamples) {
  const course::bench::GpuTiming timing = course::bench::summarize({}, 0);
  EXPECT_EQ(timing.mean_seconds, 0.0);
  EXPECT_EQ(timing.median_seconds, 0.0);
}
