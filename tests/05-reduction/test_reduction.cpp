// GPU tests of the five reduction kernels, against the solution (suite "solution") and the
// exercise (suite "exercise"): for every kernel and block size 64, 256 and 1024, every test
// size from 1 to 2^26, in int (exact), float and double (within rounding_error_bound()).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/testing.hpp"

#include "reduction_checks.hpp"

namespace reduction::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int, int>;  // implementation, kernel, block size

PassUnderTest under_test(Implementation impl, int kernel) {
  const StepInfo& info = kSteps[kernel - kFirstStep];
  return {info.name,
          std::string(impl == Implementation::solution ? "solutions" : "exercises") +
              "/05-reduction/" + info.file,
          elements_per_thread(kernel)};
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

// Case step3_block256: kernel 3 (step 3) with 256 threads a block. Under compute-sanitizer, only
// the 256-thread blocks.
std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "step" + std::to_string(std::get<1>(info.param)) + "_block" +
         std::to_string(std::get<2>(info.param));
}

std::vector<Case> cases(Implementation impl) {
  std::vector<Case> all;
  for (int kernel = kFirstStep; kernel < kFirstStep + kStepCount; ++kernel) {
    for (int block : course::under_sanitizer() ? std::vector<int>{256}
                                               : std::vector<int>{64, 256, 1024}) {
      all.emplace_back(impl, kernel, block);
    }
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Solution, Reduction, ::testing::ValuesIn(cases(Implementation::solution)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Reduction, ::testing::ValuesIn(cases(Implementation::exercise)),
                         case_name);

}  // namespace
}  // namespace reduction::testing
