#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

#include "course/random.hpp"

TEST(RandomInts, AreReproducibleFromTheSeed) {
  EXPECT_EQ(course::random_ints(1000, -50, 50, 7), course::random_ints(1000, -50, 50, 7));
  EXPECT_NE(course::random_ints(1000, -50, 50, 7), course::random_ints(1000, -50, 50, 8));
}

TEST(RandomInts, StayInRangeAndAreNotConstant) {
  const auto values = course::random_ints(10000, -3, 5);
  EXPECT_EQ(*std::min_element(values.begin(), values.end()), -3);
  EXPECT_EQ(*std::max_element(values.begin(), values.end()), 5);
  EXPECT_EQ(std::set<int>(values.begin(), values.end()).size(), 9u);
}

TEST(RandomInts, CoverTheWholeIntRange) {
  const auto values = course::random_ints(1000, INT_MIN, INT_MAX);
  EXPECT_LT(*std::min_element(values.begin(), values.end()), -(1 << 30));
  EXPECT_GT(*std::max_element(values.begin(), values.end()), 1 << 30);
}

TEST(RandomInts, RejectAnEmptyRange) {
  EXPECT_THROW(course::random_ints(10, 5, 4), std::invalid_argument);
}

TEST(RandomFloats, StayInRangeAndAreNotConstant) {
  const auto values = course::random_floats(10000, -1.0f, 1.0f);
  for (float v : values) {
    ASSERT_GE(v, -1.0f);
    ASSERT_LT(v, 1.0f);
  }
  EXPECT_GT(std::set<float>(values.begin(), values.end()).size(), 9000u);
}

TEST(RandomDoubles, AreReproducibleFromTheSeed) {
  EXPECT_EQ(course::random_doubles(100, 0.0, 1.0, 3), course::random_doubles(100, 0.0, 1.0, 3));
}

TEST(PoisonValue, IsMinusOneForIntegersAndNanForFloats) {
  EXPECT_EQ(course::poison_value<int>(), -1);
  EXPECT_EQ(course::poison_value<unsigned long long>(), ~0ull);
  EXPECT_TRUE(std::isnan(course::poison_value<float>()));
  EXPECT_TRUE(std::isnan(course::poison_value<double>()));
}
