#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "course/math.hpp"

TEST(CeilDiv, RoundsUpPartialBlocks) {
  EXPECT_EQ(course::ceil_div(1, 256), 1);
  EXPECT_EQ(course::ceil_div(256, 256), 1);
  EXPECT_EQ(course::ceil_div(257, 256), 2);
  EXPECT_EQ(course::ceil_div(std::size_t{1} << 33, std::size_t{1024}), std::size_t{1} << 23);
}

TEST(CeilDiv, IsZeroForNoItems) { EXPECT_EQ(course::ceil_div(0, 32), 0); }

// A kernel writes ceil_div(n, blockDim.x) with a std::size_t n and an unsigned blockDim.x: the
// two are converted to their common type, here std::size_t, which is also the result's type.
TEST(CeilDiv, AcceptsOperandsOfDifferentIntegerTypes) {
  const auto chunk = course::ceil_div(std::size_t{1025}, 32u);
  static_assert(std::is_same_v<decltype(chunk), const std::size_t>);
  EXPECT_EQ(chunk, std::size_t{33});
  EXPECT_EQ(course::ceil_div((std::size_t{1} << 40) + 1, 1024u), (std::size_t{1} << 30) + 1);
  EXPECT_EQ(course::ceil_div(17, 16u), 2u);
}

// Both helpers are constexpr: usable where the compiler needs a constant.
static_assert(course::ceil_div(33, 32) == 2);
static_assert(course::is_power_of_two(1024) && !course::is_power_of_two(96));

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
