// GPU tests of chapter 02 against the solution (suite "solution") and the exercise (suite
// "exercise"): random matrices, every element compared with the double-precision CPU product
// within the float error bound for Width-term inner products. Each case judges one step, named
// in the case's name (step1_..., step2_...), with the other step's piece ready-made.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "course/testing.hpp"
#include "naive_matmul_cases.hpp"

namespace naive_matmul::testing {
namespace {

using course::matmul::Shape;

using Case = std::tuple<Implementation, int, int, int>;  // implementation, step, block side, Width

// Widths that break naive code: 1, tiny, around every block side, not multiples of anything,
// and two large ones. Under compute-sanitizer, whose instrumented loads are 10-100x slower, two
// widths that leave part of a block outside the matrix, with the two largest blocks.
std::vector<Case> cases(Implementation impl) {
  const bool small = course::under_sanitizer();
  std::vector<int> widths = {17, 33};
  if (!small) widths = {1, 2, 3, 4, 15, 16, 17, 31, 33, 64, 100, 257, 1000};
  std::vector<Case> all;
  for (int step = 1; step <= kStepCount; ++step) {
    for (int side : small ? std::vector<int>{16, 32} : std::vector<int>{8, 16, 32}) {
      for (int width : widths) all.emplace_back(impl, step, side, width);
    }
  }
  return all;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "step" + std::to_string(std::get<1>(info.param)) + "_block" +
         std::to_string(std::get<2>(info.param)) + "_Width" +
         std::to_string(std::get<3>(info.param));
}

class NaiveMatmul : public ::testing::TestWithParam<Case> {};

// Step 1: the kernel, with a correct grid; step 2: the launch configuration, with the
// solution's kernel.
TEST_P(NaiveMatmul, MatchesCpu) {
  const auto [impl, step, side, width] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(step == 1 ? kernel_with_correct_grid(impl, side)
                                                    : config_with_ready_made_kernel(impl, side),
                                          Shape::square(width)));
}

INSTANTIATE_TEST_SUITE_P(Solution, NaiveMatmul,
                         ::testing::ValuesIn(cases(Implementation::solution)), case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, NaiveMatmul,
                         ::testing::ValuesIn(cases(Implementation::exercise)), case_name);

}  // namespace
}  // namespace naive_matmul::testing
