// The tests have teeth: the checker rejects the known-wrong passes in mistakes/, and prints
// what a learner with that bug would see. Races and out-of-bounds reads may well give the
// right numbers: MistakesSeenBySanitizers.* record what the checker saw, and the Meson test
// "compute-sanitizer catches the known mistakes" requires compute-sanitizer to report them.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "course/machine_code.hpp"
#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"
#include "reduction_checks.hpp"

namespace reduction::testing {
namespace {

const char* const kFile = "tests/05-reduction/mistakes/reduction_mistakes.cu";

// The first failure message of the learner's checks on this pass, or "" if every one passed.
std::string first_rejection(const PassUnderTest& under_test, PassFn<float> pass_float,
                            PassFn<int> pass_int, int attempts) {
  for (int attempt = 0; attempt < attempts; ++attempt) {
    for (std::size_t n : test_sizes()) {
      for (int block_size : {64, 256, 1024}) {
        ::testing::AssertionResult verdict =
            matches_cpu<int>(under_test, pass_int, n, block_size, 1000 + attempt);
        if (verdict) verdict = matches_cpu<float>(under_test, pass_float, n, block_size);
        if (!verdict) return verdict.message();
      }
    }
  }
  return "";
}

bool rejected(const PassUnderTest& under_test, PassFn<float> pass_float, PassFn<int> pass_int,
              int attempts) {
  const std::string rejection = first_rejection(under_test, pass_float, pass_int, attempts);
  if (!rejection.empty()) {
    std::cout << "Rejected as expected. What the learner sees:\n" << rejection << "\n";
  }
  return !rejection.empty();
}

// A known-wrong pass that the numbers must reject, within `attempts` runs of every case.
struct KnownMistake {
  const char* name;  // as in mistakes/, and in the test's name
  int step;
  PassFn<float> pass_float;
  PassFn<int> pass_int;
  int attempts;  // a race may need a few runs to show
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake& mistake = GetParam();
  EXPECT_TRUE(rejected({mistake.name, kFile, mistake.step}, mistake.pass_float, mistake.pass_int,
                       mistake.attempts))
      << mistake.name << " passed every check: the tests cannot catch it";
}

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(
        KnownMistake{"missing_syncthreads", 1, mistakes::missing_syncthreads_pass<float>,
                     mistakes::missing_syncthreads_pass<int>, 5},
        KnownMistake{"stride_off_by_one", 1, mistakes::stride_off_by_one_pass<float>,
                     mistakes::stride_off_by_one_pass<int>, 1}),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const PassUnderTest& under_test, PassFn<float> pass_float,
                    PassFn<int> pass_int, const char* tool) {
  course::report_what_the_numbers_showed(
      under_test.name, first_rejection(under_test, pass_float, pass_int, 1), tool);
}

TEST(MistakesSeenBySanitizers, LastWarpVolatileOnly) {
  report_numbers({"last_warp_volatile_only", kFile, 2}, mistakes::last_warp_volatile_only_pass<float>,
                 mistakes::last_warp_volatile_only_pass<int>, "racecheck");
}

TEST(MistakesSeenBySanitizers, Reduce1WithoutSyncthreads) {
  report_numbers({"reduce1_without_syncthreads", kFile, 1},
                 mistakes::reduce1_without_syncthreads_pass<float>,
                 mistakes::reduce1_without_syncthreads_pass<int>, "racecheck");
}

TEST(MistakesSeenBySanitizers, SecondLoadUnguarded) {
  report_numbers({"second_load_unguarded", kFile, 2}, mistakes::second_load_unguarded_pass<float>,
                 mistakes::second_load_unguarded_pass<int>, "memcheck");
}

// A __syncthreads() that only the threads with tid < s reach: undefined behaviour that the
// numbers and every compute-sanitizer tool missed on an H100. The barrier check reads it off
// the PTX (course::divergent_barrier_problem), as the steps' Barriers tests do.
void expect_barrier_check_rejects(const char* kernel) {
  std::string why_not;
  const auto code = course::ptx_of({"8mistakes", kernel}, &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty()) << "no " << kernel << " in this program's PTX";
  for (const course::MachineCode& instantiation : code) {
    if (course::built_with_device_debug(instantiation)) {
      GTEST_SKIP() << "skipped, not passed: compiled with -G (buildtype=debug), which the "
                      "barrier check does not judge";
    }
    const std::string problem = course::divergent_barrier_problem(instantiation);
    EXPECT_FALSE(problem.empty()) << instantiation.kernel << " passed the barrier check";
    if (!problem.empty() && &instantiation == &code.front()) {
      std::cout << "Rejected as expected. What the learner sees:\n"
                   "reduce3_sequential_addressing: " << problem << "\n";
    }
  }
}

// The barrier check rejects the mistake `name` (its kernel, name + "_kernel"); then, as for the
// sanitizers' mistakes, whether the numbers showed it on this GPU.
void expect_the_barrier_check_rejects(const std::string& name, PassFn<float> pass_float,
                                      PassFn<int> pass_int) {
  expect_barrier_check_rejects((name + "_kernel").c_str());
  if (::testing::Test::IsSkipped()) return;
  report_numbers({name, kFile, 1}, pass_float, pass_int, "the barrier check");
}

TEST(Mistakes, SyncthreadsInsideIfIsRejectedByTheBarrierCheck) {
  expect_the_barrier_check_rejects("reduce3_syncthreads_inside_if",
                                   mistakes::reduce3_syncthreads_inside_if_pass<float>,
                                   mistakes::reduce3_syncthreads_inside_if_pass<int>);
}

TEST(Mistakes, SyncthreadsUnderIfIsRejectedByTheBarrierCheck) {
  expect_the_barrier_check_rejects("reduce3_syncthreads_under_if",
                                   mistakes::reduce3_syncthreads_under_if_pass<float>,
                                   mistakes::reduce3_syncthreads_under_if_pass<int>);
}

}  // namespace
}  // namespace reduction::testing
