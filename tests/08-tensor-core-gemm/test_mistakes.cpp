// The tests have teeth: every known-wrong kernel in mistakes/ is rejected, and each test prints
// what a learner with that bug would see (the README quotes them).
//  - by the numbers: Mistakes/KnownMistakes.*;
//  - by the watchdog of steps 4 and 5, for a barrier that never completes: Mistakes.*Watchdog* (a death
//    test: the mistake runs in a child process, whose CUDA context the trap ends);
//  - by compute-sanitizer where the numbers may come out right: MistakesSeenBySanitizers.* run
//    the mistake and say what the numbers did; the Meson test "compute-sanitizer catches the known
//    mistakes" runs them under the tool that steps.json names and requires its report.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_testing.hpp"

namespace tensor_core_gemm {
namespace {

using testing::Shape;

struct KnownMistake {
  const char* name;
  int step;
  Gemm launch;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

// Tails in m, n and k; several laps of every step's stage ring (k up to 1000); small enough
// that a read past a matrix stays inside the checker's guard zones.
const std::vector<Shape> kShapes = {{33, 16, 65}, {129, 72, 31}, {70, 1000, 65},
                                    {256, 512, 264}, {300, 520, 600}};

std::string first_rejection(const KnownMistake& mistake) {
  const testing::GemmUnderTest gemm{
      mistake.name, "tests/08-tensor-core-gemm/mistakes/planted/" + std::string(mistake.name) + ".cu",
      [launch = mistake.launch](const __half* A, const __half* B, float* C, Shape s) {
        launch(A, B, C, s.m, s.k, s.n);
      }};
  for (int attempt = 0; attempt < 3; ++attempt) {  // a race may need a few tries to show
    for (const Shape& shape : kShapes) {
      const ::testing::AssertionResult verdict = testing::matches_cpu(gemm, shape);
      if (!verdict) return verdict.message();
    }
  }
  return "";
}

void run_death_tests_in_a_fresh_process() {
#ifdef GTEST_FLAG_SET
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // CUDA does not survive a fork
#else
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
#endif
}

// The mistakes of steps 4 and 5 may end in a barrier that never completes: the watchdog then
// traps, which ends the CUDA context and, through the checker, the program. So they run in a
// child process (a death test), which must end with "rejected by the numbers" (0) or "stopped
// by the watchdog".
bool rejected_or_stopped(int status) {
  return WIFEXITED(status) &&
         (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == testing::kBarrierTimeoutExit);
}

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake& mistake = GetParam();
  const std::string why = why_step_cannot_run(mistake.step);
  if (!why.empty()) GTEST_SKIP() << "skipped, not passed: " << why;
  if (mistake.step < 4) {
    EXPECT_TRUE(course::shows_the_rejection(first_rejection(mistake)))
        << mistake.name << " passed every check: the tests cannot catch this mistake";
    return;
  }
  if (course::under_sanitizer()) GTEST_SKIP() << "a death test: not under compute-sanitizer";
  run_death_tests_in_a_fresh_process();
  EXPECT_EXIT(std::_Exit(course::shows_the_rejection(first_rejection(mistake)) ? 0 : 1),
              rejected_or_stopped, "")
      << mistake.name << " passed every check: the tests cannot catch this mistake";
}

#define KNOWN_MISTAKE(name, step, function) \
  KnownMistake { #name, step, mistakes::name::function }

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(KNOWN_MISTAKE(ldmatrix_row_off_by_one, 2, step2_mma_ldmatrix),
                      KNOWN_MISTAKE(fragment_registers_swapped, 2, step2_mma_ldmatrix),
                      KNOWN_MISTAKE(ldmatrix_before_wait, 3, step3_multistage_swizzle),
                      KNOWN_MISTAKE(swizzle_on_store_only, 3, step3_multistage_swizzle),
                      KNOWN_MISTAKE(wgmma_without_wait, 4, step4_wgmma_tma),
                      KNOWN_MISTAKE(mbarrier_parity_not_flipped, 4, step4_wgmma_tma),
                      KNOWN_MISTAKE(tile_group_past_last_row, 5, step5_persistent_tiles),
                      KNOWN_MISTAKE(stage_given_back_while_read, 5, step5_persistent_tiles)),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

// A barrier that never completes: the consumers' wait gives up after kWatchdogSeconds, the
// kernel traps, and the checker ends the program with the report. In a child process, so that
// the trap does not end this one.
TEST(Mistakes, MbarrierWrongByteCountIsStoppedByTheWatchdog) {
  const std::string why = why_step_cannot_run(4);
  if (!why.empty()) GTEST_SKIP() << "skipped, not passed: " << why;
  if (course::under_sanitizer()) GTEST_SKIP() << "a death test: not under compute-sanitizer";
  run_death_tests_in_a_fresh_process();
  EXPECT_EXIT(first_rejection(KNOWN_MISTAKE(mbarrier_wrong_byte_count, 4, step4_wgmma_tma)),
              ::testing::ExitedWithCode(testing::kBarrierTimeoutExit),
              "did not finish within [0-9]+ s: a barrier that is never completed");
}

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
TEST(MistakesSeenBySanitizers, TailWithoutZeroFill) {
  const std::string why = why_step_cannot_run(3);
  if (!why.empty()) GTEST_SKIP() << "skipped, not passed: " << why;
  course::report_what_the_numbers_showed(
      "tail_without_zero_fill",
      first_rejection(KNOWN_MISTAKE(tail_without_zero_fill, 3, step3_multistage_swizzle)),
      "memcheck");
}

}  // namespace
}  // namespace tensor_core_gemm
