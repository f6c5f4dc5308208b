// GPU tests of chapter 09 against the solution (suite "solution") and the exercise (suite
// "exercise"): every step function, ints exactly for every n from 0 to three tiles and a few
// more, at 2^20 + 3, 2^24 + 1, 2^28 - 5 and 2^30 (where the GPU has the memory); floats within
// the rounding bound up to 2^24 + 7; two calls on one workspace; and step 4's status words,
// read off its PTX. A kernel that waits forever is stopped by the watchdog and reported.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/testing.hpp"
#include "scan_checks.hpp"

namespace scan::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int>;  // implementation, index in kStepFunctions

StepUnderTest under_test(Implementation impl, int index) {
  const bool solution = impl == Implementation::solution;
  return {kStepFunctions[index].name,
          std::string(solution ? "solutions" : "exercises") + "/09-scan/" +
              file_of(kStepFunctions[index]),
          solution};
}

template <typename T>
ScanFn<T> function_of(Implementation impl, int index) {
  return impl == Implementation::solution ? solution_step<T>(index) : exercise_step<T>(index);
}

class Scan : public ::testing::TestWithParam<Case> {};

// Every n from 0 to three step-2 tiles (six Brent-Kung tiles, twelve Kogge-Stone ones) and a
// few more: every tail length, around every tile boundary, of every tile size.
TEST_P(Scan, MatchesCpuForEveryIntSizeUpToAFewTiles) {
  const auto [impl, index] = GetParam();
  std::vector<std::size_t> sizes;
  if (course::under_sanitizer()) {
    sizes = {0, 1, 2, 3, 31, 33, 511, 513, 1025, 2047, 2049, 4100};
  } else {
    for (std::size_t n = 0; n <= 3 * kTileItems + 5; ++n) sizes.push_back(n);
  }
  EXPECT_TRUE(matches_cpu_for_every_size(under_test(impl, index),
                                         function_of<int>(impl, index), sizes));
}

TEST_P(Scan, MatchesCpuForFloatsWithinTheRoundingBound) {
  const auto [impl, index] = GetParam();
  std::vector<std::size_t> sizes = {1, 2, 33, 1000, 2049, 6147};
  if (!course::under_sanitizer()) {
    for (const std::size_t n : {(std::size_t{1} << 16) + 1, (std::size_t{1} << 20) + 3,
                                (std::size_t{1} << 24) + 7}) {
      sizes.push_back(n);
    }
  }
  Workspace workspace;
  for (const std::size_t n : sizes) {
    const auto verdict = matches_cpu<float>(under_test(impl, index),
                                            function_of<float>(impl, index), n, workspace);
    if (!verdict) {
      ADD_FAILURE() << verdict.message();
      return;
    }
  }
}

TEST_P(Scan, MatchesCpuForLargeInts) {
  const auto [impl, index] = GetParam();
  if (course::under_sanitizer()) GTEST_SKIP() << "large sizes only outside compute-sanitizer";
  Workspace workspace;
  for (const std::size_t n : {(std::size_t{1} << 20) + 3, (std::size_t{1} << 24) + 1,
                              (std::size_t{1} << 28) - 5}) {
    const auto verdict =
        matches_cpu<int>(under_test(impl, index), function_of<int>(impl, index), n, workspace);
    if (!verdict) {
      ADD_FAILURE() << verdict.message();
      return;
    }
  }
}

TEST_P(Scan, MatchesCpuForTwoToTheThirtyInts) {
  const auto [impl, index] = GetParam();
  if (course::under_sanitizer()) GTEST_SKIP() << "large sizes only outside compute-sanitizer";
  constexpr std::size_t n = std::size_t{1} << 30;
  // Input and output with their margins, and the workspace's sums (under 1%): 8 GiB and a bit.
  const std::size_t needed = 2 * n * sizeof(int) + (std::size_t{256} << 20);
  if (free_device_bytes() < needed) {
    GTEST_SKIP() << "n = 2^30 needs " << (needed >> 20) << " MiB of GPU memory, this GPU has "
                 << (free_device_bytes() >> 20) << " MiB free";
  }
  Workspace workspace;
  EXPECT_TRUE(matches_cpu<int>(under_test(impl, index), function_of<int>(impl, index), n,
                               workspace));
}

// The workspace keeps the sums and the look-back state from call to call: a second call, on
// other data, must not see the first one's (a counter or status words not reset).
TEST_P(Scan, TwoCallsOnOneWorkspaceBothMatch) {
  const auto [impl, index] = GetParam();
  const std::size_t n = 5 * kTileItems + 3;
  Workspace workspace;
  for (const std::uint64_t seed : {1, 2}) {
    const auto verdict = matches_cpu<int>(under_test(impl, index), function_of<int>(impl, index),
                                          n, workspace, seed);
    if (!verdict) {
      ADD_FAILURE() << "call " << seed << " of two on one workspace, other data each time: "
                    << verdict.message()
                    << (seed == 2 ? "\n  The first call was right: does the second see what the "
                                    "first left in the workspace (reset it before each launch)?"
                                  : "");
      return;
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return kStepFunctions[std::get<1>(info.param)].name;
}

std::vector<Case> cases(Implementation impl) {
  std::vector<Case> all;
  for (int index = 0; index < kStepFunctionCount; ++index) all.emplace_back(impl, index);
  return all;
}

INSTANTIATE_TEST_SUITE_P(Solution, Scan, ::testing::ValuesIn(cases(Implementation::solution)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Scan, ::testing::ValuesIn(cases(Implementation::exercise)),
                         case_name);

// ---- Step 4: status words with strong GPU-scope accesses, read off the PTX ---------------------
// A weak load in the wait, or a flag and value stored apart, give the right numbers almost
// always: no run shows them, the PTX (cuobjdump -ptx of this very program) does.
class StatusWords : public ::testing::TestWithParam<Implementation> {};

TEST_P(StatusWords, AreReadAndWrittenWithStrongGpuScopeAccesses) {
  const bool solution = GetParam() == Implementation::solution;
  std::string why_not;
  const auto code = ptx_of({solution ? "8solution" : "8exercise", "lookback_kernel"}, &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty()) << "no lookback_kernel in this program's PTX";
  for (const MachineCode& kernel : code) {
    const std::string problem = status_access_problem(kernel);
    EXPECT_TRUE(problem.empty()) << "step4_decoupled_lookback: " << problem << ".\n  Edit: "
                                 << (solution ? "solutions" : "exercises")
                                 << "/09-scan/step4_decoupled_lookback.cu\n  Kernel: "
                                 << kernel.kernel;
    if (!problem.empty()) return;
  }
}

COURSE_STEP_TESTS(StatusWords, Implementation, 4);

}  // namespace
}  // namespace scan::testing
