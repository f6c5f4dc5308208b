#include <gtest/gtest.h>

#include <cmath>

#include "course/rounding.hpp"

namespace {

TEST(RoundingGamma, IsLTimesTheUnitRoundoffToFirstOrder) {
  const double u = std::ldexp(1.0, -24);  // float's unit roundoff
  EXPECT_EQ(course::rounding_gamma<double>(1),
            std::ldexp(1.0, -53) / (1.0 - std::ldexp(1.0, -53)));
  EXPECT_EQ(course::rounding_gamma<float>(66), 66 * u / (1.0 - 66 * u));
  EXPECT_GT(course::rounding_gamma<float>(66), 66 * u);
}

TEST(SummationErrorBound, IsZeroForIntsAndGrowsWithTheSummationDepth) {
  EXPECT_EQ(course::summation_error_bound<int>(1000.0L, 100), 0.0);
  const double shallow = course::summation_error_bound<float>(1000.0L, 10);
  const double deep = course::summation_error_bound<float>(1000.0L, 1000);
  EXPECT_GT(deep, 90 * shallow);
  EXPECT_NEAR(course::summation_error_bound<double>(1.0L, 1), std::ldexp(1.0, -53), 1e-30);
}

TEST(SummationErrorBound, ScalesWithTheMagnitudeSum) {
  EXPECT_EQ(course::summation_error_bound<float>(3.0L, 52),
            3.0 * course::rounding_gamma<float>(52));
  EXPECT_EQ(course::summation_error_bound<double>(0.0L, 52), 0.0);
}

}  // namespace
