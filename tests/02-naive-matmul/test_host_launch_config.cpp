// Host tests (no GPU): step 2's launch configuration (solution in suite "host", exercise in
// suite "exercise"), and the argument checks every launcher shares (suite "host").
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "course/testing.hpp"
#include "naive_matmul_cases.hpp"

namespace naive_matmul::testing {
namespace {

using course::invalid_argument_message;

LaunchConfig config_of(Implementation impl, int width, int side) {
  return impl == Implementation::solution ? solution::launch_config(width, side)
                                          : exercise::launch_config(width, side);
}

class LaunchConfigOf : public ::testing::TestWithParam<Implementation> {};

TEST_P(LaunchConfigOf, CoversEveryElementWithWholeBlocks) {
  for (int side : {1, 8, 16, 32}) {
    for (int width : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000, 4097}) {
      const LaunchConfig c = config_of(GetParam(), width, side);
      const std::string where = "Width " + std::to_string(width) + ", block side " +
                                std::to_string(side) + ": edit " + source_file(GetParam()) +
                                " (launch_config)";
      ASSERT_EQ(c.block.x, unsigned(side)) << where;
      ASSERT_EQ(c.block.y, unsigned(side)) << where;
      ASSERT_EQ(c.block.z, 1u) << where;
      // Enough blocks to reach the last row and column, and not a whole block more.
      ASSERT_GE(c.grid.x * c.block.x, unsigned(width)) << where << ": columns not covered";
      ASSERT_GE(c.grid.y * c.block.y, unsigned(width)) << where << ": rows not covered";
      ASSERT_LT((c.grid.x - 1) * c.block.x, unsigned(width)) << where << ": a useless block column";
      ASSERT_LT((c.grid.y - 1) * c.block.y, unsigned(width)) << where << ": a useless block row";
      ASSERT_EQ(c.grid.z, 1u) << where;
    }
  }
}

COURSE_STEP_TESTS(LaunchConfigOf, Implementation, 2);

float dummy[1];

TEST(NaiveMatmulArguments, NonPositiveWidthIsRejected) {
  for (int width : {0, -1, -1000}) {
    EXPECT_NE(invalid_argument_message([&] { solution::matmul(dummy, dummy, dummy, width, 16); })
                  .find("Width must be at least 1"),
              std::string::npos);
  }
}

TEST(NaiveMatmulArguments, AWidthWhoseElementCountOverflowsIntIsRejected) {
  const std::string message =
      invalid_argument_message([] { solution::matmul(dummy, dummy, dummy, 46341, 16); });
  EXPECT_NE(message.find("32-bit"), std::string::npos) << message;
  // 46340^2 < 2^31 is still accepted by the checks (launch_config needs no GPU).
  EXPECT_NO_THROW(solution::launch_config(kMaxWidth, 16));
}

TEST(NaiveMatmulArguments, NullPointersAreRejected) {
  EXPECT_NE(invalid_argument_message([] { solution::matmul(nullptr, dummy, dummy, 4, 2); })
                .find("null pointer"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([] { solution::matmul(dummy, nullptr, dummy, 4, 2); })
                .find("null pointer"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([] { solution::matmul(dummy, dummy, nullptr, 4, 2); })
                .find("null pointer"),
            std::string::npos);
}

TEST(NaiveMatmulArguments, BlockSidesOutsideOneTo32AreRejected) {
  for (int side : {0, -4, 33, 64}) {
    EXPECT_NE(invalid_argument_message([&] { solution::matmul(dummy, dummy, dummy, 4, side); })
                  .find("between 1 and 32"),
              std::string::npos)
        << side;
  }
}

TEST(NaiveMatmulArguments, ImpossibleLaunchConfigurationsAreRejected) {
  const LaunchConfig too_many{dim3(1, 1), dim3(64, 32)};
  EXPECT_NE(invalid_argument_message([&] { solution::launch_kernel(dummy, dummy, dummy, 4,
                                                                   too_many); })
                .find("1024 threads"),
            std::string::npos);
  const LaunchConfig empty_grid{dim3(0, 1), dim3(16, 16)};
  EXPECT_NE(invalid_argument_message([&] { solution::launch_kernel(dummy, dummy, dummy, 4,
                                                                   empty_grid); })
                .find("zero dimension"),
            std::string::npos);
}

TEST(NaiveMatmulArguments, TheExerciseShipsTheSameChecks) {
  EXPECT_THROW(exercise::matmul(dummy, dummy, dummy, 0, 16), std::invalid_argument);
  EXPECT_THROW(exercise::matmul(nullptr, dummy, dummy, 4, 16), std::invalid_argument);
  EXPECT_THROW(exercise::matmul(dummy, dummy, dummy, 4, 33), std::invalid_argument);
}

}  // namespace
}  // namespace naive_matmul::testing
