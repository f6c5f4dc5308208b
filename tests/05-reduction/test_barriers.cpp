// Every __syncthreads() of the five kernels is reached by every thread of the block. A barrier
// inside `if (tid < s)` is undefined behaviour (CUDA Programming Guide: __syncthreads() in
// conditional code only if the condition is the same across the whole block), yet on an H100 it
// gave the right sums and passed memcheck, racecheck and synccheck: no run shows it. The PTX
// does: course::divergent_barrier_problem reads it from this very program (cuobjdump -ptx).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/barrier_test.hpp"
#include "reduction.cuh"

namespace reduction::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int>;  // implementation, kernel 1-5

class Barriers : public ::testing::TestWithParam<Case> {};

TEST_P(Barriers, EveryBarrierIsReachedByTheWholeBlock) {
  const auto [impl, number] = GetParam();
  const bool solution = impl == Implementation::solution;
  const StepInfo& info = kSteps[number - kFirstStep];
  const std::string kernel = "reduce" + std::to_string(number) + "_kernel";
  const std::vector<std::string> kernels = {solution ? "8solution" : "8exercise", kernel};
  COURSE_EXPECT_EVERY_BARRIER_REACHED(
      kernels, info.name,
      std::string(solution ? "solutions" : "exercises") + "/05-reduction/" + info.file);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "step" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Solution, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(kFirstStep, kFirstStep + kStepCount)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(kFirstStep, kFirstStep + kStepCount)),
                         case_name);

}  // namespace
}  // namespace reduction::testing
