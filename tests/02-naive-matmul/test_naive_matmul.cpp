// GPU tests of chapter 02 against the solution (suite "solution") and the exercise (suite
// "exercise"): random matrices, every element compared with the double-precision CPU product
// within the float error bound for Width-term inner products. Each test judges one step, named
// in the test's name (Step1..., Step2...), with the other step's piece ready-made.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "course/testing.hpp"
#include "naive_matmul_cases.hpp"

namespace naive_matmul::testing {
namespace {

using course::matmul::Shape;

// Widths that break naive code: 1, tiny, around every block side, not multiples of anything,
// and two large ones (under compute-sanitizer, whose instrumented loads are 10-100x slower,
// the largest is left out).
std::vector<int> widths() {
  std::vector<int> all = {1, 2, 3, 4, 15, 16, 17, 31, 33, 64, 100, 257};
  if (!course::under_sanitizer()) all.push_back(1000);
  return all;
}
const int kBlockSides[] = {8, 16, 32};

using Case = std::tuple<Implementation, int, int>;  // implementation, block side, Width

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "block" + std::to_string(std::get<1>(info.param)) + "_Width" +
         std::to_string(std::get<2>(info.param));
}

class NaiveMatmul : public ::testing::TestWithParam<Case> {};

TEST_P(NaiveMatmul, Step1KernelMatchesCpuWithACorrectGrid) {
  const auto [impl, side, width] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(kernel_with_correct_grid(impl, side),
                                          Shape::square(width)));
}

TEST_P(NaiveMatmul, Step2LaunchConfigMatchesCpuWithTheSolutionKernel) {
  const auto [impl, side, width] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(config_with_ready_made_kernel(impl, side),
                                          Shape::square(width)));
}

INSTANTIATE_TEST_SUITE_P(Solution, NaiveMatmul,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::ValuesIn(kBlockSides),
                                            ::testing::ValuesIn(widths())),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, NaiveMatmul,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::ValuesIn(kBlockSides),
                                            ::testing::ValuesIn(widths())),
                         case_name);

}  // namespace
}  // namespace naive_matmul::testing
