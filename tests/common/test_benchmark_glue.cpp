#include <gtest/gtest.h>

#include "course/benchmark.hpp"

TEST(Summarize, ReportsTheMeanOfTheSamples) {
  const course::bench::GpuTiming timing = course::bench::summarize({3.0, 1.0, 2.0, 10.0, 4.0});
  EXPECT_DOUBLE_EQ(timing.mean_seconds, 4.0);
}

TEST(Summarize, IsZeroWithoutSamples) {
  EXPECT_EQ(course::bench::summarize({}).mean_seconds, 0.0);
}

TEST(ReferenceRates, ComparesWithTheMedianOfTheVendorsRepetitions) {
  course::bench::ReferenceRates<int> rates;
  for (const double rate : {2600.0, 2500.0, 2700.0, 2650.0, 2100.0}) rates.add(26, rate);
  EXPECT_DOUBLE_EQ(rates.median(26), 2600.0);  // not 2100, the repetition that ran last
  EXPECT_EQ(rates.median(12), 0.0);             // no vendor row for that case: no %ref
}
