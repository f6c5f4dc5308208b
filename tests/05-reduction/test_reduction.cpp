// GPU tests of the five reduction kernels, against the solution (suite "solution") and the
// exercise (suite "exercise"): for every kernel and block size 64, 256 and 1024, every test
// size from 1 to 2^26, in int (exact), float and double (within rounding_error_bound()).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "reduction_checks.hpp"

namespace reduction::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int, int>;  // implementation, kernel, block size

PassUnderTest under_test(Implementation impl, int kernel) {
  const StepInfo& info = kSteps[kernel - 1];
  return {info.name,
          std::string(impl == Implementation::solution ? "solutions" : "exercises") +
              "/05-reduction/" + info.name + ".cu",
          info.elements_per_thread};
}

template <typename T>
void expect_every_size_matches(Implementation impl, int kernel, int block_size) {
  const PassFn<T> pass =
      impl == Implementation::solution ? solution_pass<T>(kernel) : exercise_pass<T>(kernel);
  for (std::size_t n : test_sizes()) {
    EXPECT_TRUE(matches_cpu<T>(under_test(impl, kernel), pass, n, block_size));
  }
}

class Reduction : public ::testing::TestWithParam<Case> {};

TEST_P(Reduction, MatchesCpuForIntsExactly) {
  const auto [impl, kernel, block_size] = GetParam();
  expect_every_size_matches<int>(impl, kernel, block_size);
}

TEST_P(Reduction, MatchesCpuForFloatsWithinTheRoundingBound) {
  const auto [impl, kernel, block_size] = GetParam();
  expect_every_size_matches<float>(impl, kernel, block_size);
}

TEST_P(Reduction, MatchesCpuForDoublesWithinTheRoundingBound) {
  const auto [impl, kernel, block_size] = GetParam();
  expect_every_size_matches<double>(impl, kernel, block_size);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(kSteps[std::get<1>(info.param) - 1].name) + "_block" +
         std::to_string(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Solution, Reduction,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(1, 6),
                                            ::testing::Values(64, 256, 1024)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Reduction,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(1, 6),
                                            ::testing::Values(64, 256, 1024)),
                         case_name);

}  // namespace
}  // namespace reduction::testing
