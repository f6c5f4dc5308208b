// Host tests of chapter 00 (no GPU needed): the launch configuration of step 4 for the
// solution (suite "host") and the exercise (suite "exercise"), and the argument checks.
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "course/testing.hpp"
#include "first_kernel_checks.hpp"

namespace first_kernel::testing {
namespace {

class LaunchConfigOf : public ::testing::TestWithParam<Implementation> {};

TEST_P(LaunchConfigOf, CoversEveryNWithNoSpareBlock) {
  const auto config_of = steps_of(GetParam()).launch_config;
  const std::string file = source_file(GetParam(), "step4_launch.cu");
  for (const int threads : {1, 32, 100, 256, 1024}) {
    for (const int n : {0, 1, 31, 32, 33, 255, 256, 257, 1000, 1 << 20, (1 << 26) + 1,
                        INT_MAX}) {
      EXPECT_TRUE(config_covers(config_of, n, threads, file));
    }
  }
}

COURSE_STEP_TESTS(LaunchConfigOf, Implementation, 4);

// Step 6's grid is ready-made: just enough blocks of kElementsPerThread x threads elements, up to
// n = INT_MAX (whose rounding-up sum passes an int).
TEST(InFlightLaunchConfig, CoversEveryNWithNoSpareBlock) {
  for (const int threads : {1, 32, 100, 256, 1000, 1024}) {
    for (const int n : {0, 1, 3, 4, 5, 1000, 4097, 1 << 20, INT_MAX - 1, INT_MAX}) {
      const LaunchConfig config = in_flight_launch_config(n, threads);
      const long long per_block = 1ll * threads * kElementsPerThread;
      EXPECT_EQ(config.block.x, static_cast<unsigned>(threads));
      EXPECT_EQ(config.grid.y * config.grid.z * config.block.y * config.block.z, 1u);
      EXPECT_GE(1ll * config.grid.x * per_block, n) << "n = " << n << ", threads = " << threads;
      EXPECT_TRUE(config.grid.x == 1 || (config.grid.x - 1ll) * per_block < n)
          << "n = " << n << ", threads = " << threads << ": " << config.grid.x << " blocks";
    }
  }
  EXPECT_NE(course::invalid_argument_message([] { in_flight_launch_config(-1, 256); }), "");
  EXPECT_NE(course::invalid_argument_message([] { in_flight_launch_config(10, 0); }), "");
}

TEST(FirstKernelArguments, BadArgumentsAreRejectedWithAMessage) {
  using course::invalid_argument_message;
  EXPECT_NE(invalid_argument_message([] { solution::launch_config(-1, 256); }), "");
  EXPECT_NE(invalid_argument_message([] { solution::launch_config(1000, 0); }), "");
  const std::vector<float> three(3), four(4);
  EXPECT_NE(invalid_argument_message(
                [&] { solution::saxpy(solution::saxpy_kernel(), 1.0f, three, four, 256); }),
            "");
  EXPECT_NE(invalid_argument_message([&] { solution::saxpy(nullptr, 1.0f, three, three, 256); }),
            "");
  EXPECT_NE(invalid_argument_message([] { solution::round_trip(nullptr, nullptr, 4); }), "");
  EXPECT_NE(invalid_argument_message([] {
              solution::time_launch_ms(solution::saxpy_kernel(), LaunchConfig{}, 4, 1.0f,
                                       nullptr, nullptr);
            }),
            "");
  const std::string message = invalid_argument_message([] { solution::launch_config(5, -3); });
  EXPECT_NE(message.find("launch_config"), std::string::npos) << message;
}

}  // namespace
}  // namespace first_kernel::testing
