// GPU tests of steps 0-5, run against the solution (suite "solution") and the learner's
// exercise (suite "exercise"): the same checks, selected by the instantiation prefix.
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <tuple>

#include "course/device_buffer.hpp"
#include "course/random.hpp"
#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {

// gtest prints parameters of failing tests; a step prints as its name.
void PrintTo(const StepUnderTest& step, std::ostream* out) { *out << step.name; }


namespace {

std::string id_of(const StepUnderTest& step) { return step.name.substr(0, step.name.find('<')); }

// ---- Steps 1-5 at every test size -------------------------------------------------------
using StepAndSize = std::tuple<StepUnderTest, std::size_t>;
class SumOfSquaresStep : public ::testing::TestWithParam<StepAndSize> {};

TEST_P(SumOfSquaresStep, MatchesCpuExactly) {
  const auto& [step, n] = GetParam();
  EXPECT_TRUE(matches_cpu(step, test_input(n)));
}

std::string step_and_size_name(const ::testing::TestParamInfo<StepAndSize>& info) {
  return id_of(std::get<0>(info.param)) + "_n" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresStep,
                         ::testing::Combine(::testing::ValuesIn(sum_steps(Implementation::solution)),
                                            ::testing::ValuesIn(test_sizes())),
                         step_and_size_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresStep,
                         ::testing::Combine(::testing::ValuesIn(sum_steps(Implementation::exercise)),
                                            ::testing::ValuesIn(test_sizes())),
                         step_and_size_name);

// ---- Properties of one implementation ----------------------------------------------------
class SumOfSquares : public ::testing::TestWithParam<Implementation> {};

TEST_P(SumOfSquares, MatchesCpuWithExtremeIntsWhoseSumWrapsAround) {
  std::vector<int> input = course::random_ints(4099, INT_MIN, INT_MAX, 99);
  input[0] = INT_MIN;
  input[1] = INT_MAX;
  for (const StepUnderTest& step : sum_steps(GetParam())) {
    EXPECT_TRUE(matches_cpu(step, input));
  }
}

TEST_P(SumOfSquares, MatchesCpuForManyLaunchConfigurations) {
  const std::vector<int> input = test_input(100003, 7);
  for (int threads : {1, 32, 1000, 1024}) {
    EXPECT_TRUE(matches_cpu(sum_step(GetParam(), 2, 1, threads), input));
    EXPECT_TRUE(matches_cpu(sum_step(GetParam(), 3, 1, threads), input));
    for (int blocks : {1, 2, 264}) {
      EXPECT_TRUE(matches_cpu(sum_step(GetParam(), 4, blocks, threads), input));
    }
  }
  for (int threads : {1, 2, 64, 256, 1024}) {
    for (int blocks : {1, 3, 528}) {
      EXPECT_TRUE(matches_cpu(sum_step(GetParam(), 5, blocks, threads), input));
    }
  }
}

TEST_P(SumOfSquares, MatchesCpuAndReportsTheGpuCyclesOfEveryStep) {
  const std::vector<int> input = test_input(4096);
  const course::DeviceBuffer<int> device_input(input);
  for (const StepUnderTest& step : sum_steps(GetParam())) {
    Workspace workspace;
    workspace.poison_before_each_run(true);
    const Result result = step.run(device_input.data(), input.size(), workspace);
    EXPECT_EQ(result.sum, cpu_sum_of_squares(input)) << step.name << ": edit " << step.source_file;
    EXPECT_GT(result.gpu_cycles, 0u) << step.name;
    EXPECT_NE(result.gpu_cycles, ~0ull) << step.name << ": no block recorded its cycles";
  }
}

TEST_P(SumOfSquares, PointerChaseEndsWhereTheCpuChaseEnds) {
  const std::size_t timed_loads = 1001;
  for (std::size_t n : {2u, 33u, 1025u, 4097u}) {
    const std::vector<std::uint32_t> next = random_cycle(n, n);
    const course::DeviceBuffer<std::uint32_t> device_next(next);
    const LatencyResult result =
        GetParam() == Implementation::solution
            ? solution::step0_pointer_chase(device_next.data(), n, timed_loads)
            : exercise::step0_pointer_chase(device_next.data(), n, timed_loads);
    const std::uint32_t expected = cpu_pointer_chase(next, result.warmup_loads + timed_loads);
    ASSERT_NE(expected, 0u) << "test setup: choose a load count that does not end at index 0";
    EXPECT_EQ(result.final_index, expected)
        << "step0_pointer_chase, n = " << n << ": the chase ended at index "
        << result.final_index << ", the CPU chase at " << expected << ".\n  Edit: "
        << (GetParam() == Implementation::solution ? "solutions" : "exercises")
        << "/01-sum-of-squares/step0_pointer_chase.cu (the chase() loop)";
    EXPECT_GT(result.cycles_per_load(), 1.0) << "n = " << n;
    EXPECT_GT(result.nanoseconds, 0u) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquares, ::testing::Values(Implementation::solution));
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquares, ::testing::Values(Implementation::exercise));

}  // namespace
}  // namespace sum_of_squares::testing
