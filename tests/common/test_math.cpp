#include <gtest/gtest.h>

#include <cstddef>
#include <limits>

#include "course/math.hpp"

TEST(CeilDiv, RoundsUpPartialBlocks) {
  EXPECT_EQ(course::ceil_div(1, 256), 1);
  EXPECT_EQ(course::ceil_div(256, 256), 1);
  EXPECT_EQ(course::ceil_div(257, 256), 2);
  EXPECT_EQ(course::ceil_div(std::size_t{1} << 33, std::size_t{1024}), std::size_t{1} << 23);
}

TEST(CeilDiv, IsZeroForNoItems) { EXPECT_EQ(course::ceil_div(0, 32), 0); }

TEST(CeilDiv, DoesNotOverflowNearTheLargestInt) {
  constexpr int kLargest = std::numeric_limits<int>::max();  // 2^31 - 1
  EXPECT_EQ(course::ceil_div(kLargest, 128), 16777216);
  EXPECT_EQ(course::ceil_div(kLargest, 1), kLargest);
  EXPECT_EQ(course::ceil_div(kLargest - 127, 128), 16777215);
}

TEST(IsPowerOfTwo, AcceptsPowersAndRejectsTheRest) {
  for (int p = 1; p <= 1024; p *= 2) EXPECT_TRUE(course::is_power_of_two(p)) << p;
  for (int v : {0, -2, 3, 96, 1000, 1023, 1025}) EXPECT_FALSE(course::is_power_of_two(v)) << v;
}
