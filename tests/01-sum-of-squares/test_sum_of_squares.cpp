// GPU tests of steps 0-5, run against the solution (suite "solution") and the learner's
// exercise (suite "exercise"): the same checks, selected by the instantiation prefix.
// Every test concerns ONE step and carries its id in the parameter name ("step3_interleaved_n33",
// "step5_block_reduction_3_blocks_of_64"): ./course test 01.S runs Exercise/*/stepS_*.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "course/barrier_test.hpp"
#include "course/device_buffer.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"
#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {

// gtest prints parameters of failing tests; a step prints as its name.
void PrintTo(const StepUnderTest& step, std::ostream* out) { *out << step.name; }


namespace {

// "step3_interleaved<<<1, 250>>>" -> "step3_interleaved"
std::string id_of(const StepUnderTest& step) { return step.name.substr(0, step.name.find('<')); }

// "step5_block_reduction<<<3, 64>>>" -> "step5_block_reduction_3_blocks_of_64"
std::string id_with_launch_of(const StepUnderTest& step) {
  const std::size_t open = step.name.find("<<<");
  const std::size_t comma = step.name.find(", ", open);
  const std::size_t close = step.name.find(">>>", comma);
  const std::string blocks = step.name.substr(open + 3, comma - open - 3);
  const std::string threads = step.name.substr(comma + 2, close - comma - 2);
  return id_of(step) + "_" + blocks + (blocks == "1" ? "_block_of_" : "_blocks_of_") + threads;
}

std::string step_name(const ::testing::TestParamInfo<StepUnderTest>& info) {
  return id_of(info.param);
}

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

// ---- Steps 1-5, one test per step: extreme values, cycles --------------------------------
class SumOfSquares : public ::testing::TestWithParam<StepUnderTest> {};

TEST_P(SumOfSquares, MatchesCpuWithExtremeIntsWhoseSumWrapsAround) {
  std::vector<int> input = course::random_ints(4099, INT_MIN, INT_MAX, 99);
  input[0] = INT_MIN;
  input[1] = INT_MAX;
  EXPECT_TRUE(matches_cpu(GetParam(), input));
}

TEST_P(SumOfSquares, MatchesCpuAndReportsTheGpuCyclesOfItsSlowestBlock) {
  const StepUnderTest& step = GetParam();
  const std::vector<int> input = test_input(4096);
  const course::DeviceBuffer<int> device_input(input);
  Workspace workspace;
  workspace.poison_before_each_run(true);
  const Result result = step.run(device_input.data(), input.size(), workspace);
  EXPECT_EQ(result.sum, cpu_sum_of_squares(input)) << step.name << ": edit " << step.source_file;
  EXPECT_GT(result.gpu_cycles, 0u) << step.name;
  EXPECT_NE(result.gpu_cycles, ~0ull) << step.name << ": no block recorded its cycles";
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquares,
                         ::testing::ValuesIn(sum_steps(Implementation::solution)), step_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquares,
                         ::testing::ValuesIn(sum_steps(Implementation::exercise)), step_name);

// ---- Steps 2-5 with every launch configuration their launchers accept --------------------
// Blocks of 1 and 2 threads (a partial warp), odd thread counts for steps 2-4, grids larger
// than the input's share per thread: one test per step and configuration.
std::vector<StepUnderTest> launch_configurations(Implementation impl) {
  std::vector<StepUnderTest> steps;
  if (course::under_sanitizer()) {  // one partial configuration per step there
    return {sum_step(impl, 2, 1, 1000), sum_step(impl, 3, 1, 1000), sum_step(impl, 4, 2, 1000),
            sum_step(impl, 5, 3, 64)};
  }
  for (int step : {2, 3}) {
    for (int threads : {1, 32, 1000, 1024}) steps.push_back(sum_step(impl, step, 1, threads));
  }
  for (int threads : {1, 32, 1000, 1024}) {
    for (int blocks : {1, 2, 264}) steps.push_back(sum_step(impl, 4, blocks, threads));
  }
  for (int threads : {1, 2, 64, 256, 1024}) {
    for (int blocks : {1, 3, 528}) steps.push_back(sum_step(impl, 5, blocks, threads));
  }
  return steps;
}

class SumOfSquaresLaunch : public ::testing::TestWithParam<StepUnderTest> {};

TEST_P(SumOfSquaresLaunch, MatchesCpuWithThisGridAndBlock) {
  EXPECT_TRUE(matches_cpu(GetParam(), test_input(100003, 7)));
}

std::string launch_name(const ::testing::TestParamInfo<StepUnderTest>& info) {
  return id_with_launch_of(info.param);
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresLaunch,
                         ::testing::ValuesIn(launch_configurations(Implementation::solution)),
                         launch_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresLaunch,
                         ::testing::ValuesIn(launch_configurations(Implementation::exercise)),
                         launch_name);

// ---- Step 0: the pointer chase ---------------------------------------------------------
using ChaseCase = std::tuple<Implementation, std::size_t>;  // implementation, working-set size
class SumOfSquaresPointerChase : public ::testing::TestWithParam<ChaseCase> {};

TEST_P(SumOfSquaresPointerChase, EndsWhereTheCpuChaseEnds) {
  const auto [impl, n] = GetParam();
  const std::size_t timed_loads = 1001;
  const std::vector<std::uint32_t> next = random_cycle(n, n);
  const course::DeviceBuffer<std::uint32_t> device_next(next);
  const LatencyResult result =
      impl == Implementation::solution
          ? solution::step0_pointer_chase(device_next.data(), n, timed_loads)
          : exercise::step0_pointer_chase(device_next.data(), n, timed_loads);
  const std::uint32_t expected = cpu_pointer_chase(next, result.warmup_loads + timed_loads);
  ASSERT_NE(expected, 0u) << "test setup: choose a load count that does not end at index 0";
  EXPECT_EQ(result.final_index, expected)
      << "step0_pointer_chase, n = " << n << ": the chase ended at index " << result.final_index
      << ", the CPU chase at " << expected << ".\n  Edit: "
      << (impl == Implementation::solution ? "solutions" : "exercises")
      << "/01-sum-of-squares/step0_pointer_chase.cu (the chase() loop)";
  EXPECT_GT(result.cycles_per_load(), 1.0) << "n = " << n;
  EXPECT_GT(result.nanoseconds, 0u) << "n = " << n;
}

std::string chase_name(const ::testing::TestParamInfo<ChaseCase>& info) {
  return "step0_pointer_chase_n" + std::to_string(std::get<1>(info.param));
}

const std::size_t kChaseSizes[] = {2, 33, 1025, 4097};
INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresPointerChase,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::ValuesIn(kChaseSizes)),
                         chase_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresPointerChase,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::ValuesIn(kChaseSizes)),
                         chase_name);

// ---- Step 5: every __syncthreads() of the tree is reached by the whole block --------------
// A barrier inside `if (threadIdx.x < stride)` gives the right sums on today's GPUs and passes
// every sanitizer: only the PTX shows it.
class SumOfSquaresBarriers : public ::testing::TestWithParam<Implementation> {};

TEST_P(SumOfSquaresBarriers, EveryBarrierIsReachedByTheWholeBlock) {
  const bool solution = GetParam() == Implementation::solution;
  const std::vector<std::string> kernels = {solution ? "8solution" : "8exercise",
                                            "block_reduction_kernel"};
  COURSE_EXPECT_EVERY_BARRIER_REACHED(
      kernels, "step5_block_reduction",
      std::string(solution ? "solutions" : "exercises") +
          "/01-sum-of-squares/step5_block_reduction.cu");
}

std::string barrier_name(const ::testing::TestParamInfo<Implementation>&) {
  return "step5_block_reduction";
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresBarriers,
                         ::testing::Values(Implementation::solution), barrier_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresBarriers,
                         ::testing::Values(Implementation::exercise), barrier_name);

}  // namespace
}  // namespace sum_of_squares::testing
