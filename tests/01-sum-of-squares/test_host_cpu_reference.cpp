// Host tests of the CPU reference and the test helpers: the tests are only as good as these.
#include <gtest/gtest.h>

#include <climits>
#include <set>

#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {
namespace {

TEST(CpuSumOfSquares, AddsSquaresExactly) {
  EXPECT_EQ(cpu_sum_of_squares({1, -2, 3}), 14u);
  EXPECT_EQ(cpu_sum_of_squares({}), 0u);
  EXPECT_EQ(cpu_sum_of_squares({INT_MIN}), 1ull << 62);
  EXPECT_EQ(cpu_sum_of_squares({46341}), 2147488281ull);  // above 2^31: no int overflow
}

TEST(CpuSumOfSquares, WrapsModulo2To64) {
  EXPECT_EQ(cpu_sum_of_squares({INT_MIN, INT_MIN, INT_MIN, INT_MIN}), 0u);  // 4 * 2^62
}

TEST(RandomCycle, VisitsEveryIndexOnceBeforeReturning) {
  for (std::size_t n : {1u, 2u, 33u, 1000u}) {
    const auto next = random_cycle(n, 3);
    std::set<std::uint32_t> seen;
    std::uint32_t index = 0;
    for (std::size_t k = 0; k < n; ++k) {
      seen.insert(index);
      index = next[index];
    }
    EXPECT_EQ(seen.size(), n);
    EXPECT_EQ(index, 0u) << "the cycle must close after n steps";
  }
}

TEST(TextbookPartials, AddUpToTheTotal) {
  const std::vector<int> input = test_input(1025);
  const std::uint64_t total = cpu_sum_of_squares(input);
  auto sum = [](const std::vector<unsigned long long>& v) {
    unsigned long long s = 0;
    for (auto x : v) s += x;
    return s;
  };
  EXPECT_EQ(sum(contiguous_chunk_partials(input, 250)), total);
  EXPECT_EQ(sum(interleaved_partials(input, 250)), total);
  EXPECT_EQ(sum(grid_stride_partials(input, 7, 96)), total);
  EXPECT_EQ(sum(per_block_partials(input, 13, 128)), total);
  EXPECT_EQ(per_block_partials(input, 13, 128).size(), 13u);
}

TEST(TestInput, IsNotConstantAndOverflows32BitSquares) {
  const std::vector<int> input = test_input(10000);
  EXPECT_GT(std::set<int>(input.begin(), input.end()).size(), 9000u);
  bool overflows = false;
  for (int x : input) overflows |= static_cast<long long>(x) * x > INT_MAX;
  EXPECT_TRUE(overflows);
}

}  // namespace
}  // namespace sum_of_squares::testing
