// The tests have teeth: the checker that the exercise and the solution face rejects every
// known-wrong variant in mistakes/. Each test prints the rejection, which is what a learner
// who makes that mistake sees (the README quotes them).
#include <gtest/gtest.h>

#include <iostream>

#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"
#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {
namespace {

struct KnownMistake {
  StepUnderTest step;
  int runs_per_size;  // a race may give the right answer by luck: try it several times
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.step.name; }

std::vector<KnownMistake> known_mistakes() {
  const std::string where = "tests/01-sum-of-squares/mistakes/";
  return {
      {{"chunk_rounded_down<<<1, 250>>>", where + "chunk_rounded_down.cu",
        [](const int* in, std::size_t n, Workspace& ws) {
          return mistakes::chunk_rounded_down(in, n, 250, ws);
        },
        [](const std::vector<int>& in) { return contiguous_chunk_partials(in, 250); }},
       1},
      {{"int_accumulator<<<1, 250>>>", where + "int_accumulator.cu",
        [](const int* in, std::size_t n, Workspace& ws) {
          return mistakes::int_accumulator(in, n, 250, ws);
        },
        [](const std::vector<int>& in) { return interleaved_partials(in, 250); }},
       1},
      {{"skips_last_element<<<7, 96>>>", where + "skips_last_element.cu",
        [](const int* in, std::size_t n, Workspace& ws) {
          return mistakes::skips_last_element(in, n, 7, 96, ws);
        },
        [](const std::vector<int>& in) { return grid_stride_partials(in, 7, 96); }},
       1},
      {{"missing_syncthreads<<<13, 256>>>", where + "missing_syncthreads.cu",
        [](const int* in, std::size_t n, Workspace& ws) {
          return mistakes::missing_syncthreads(in, n, 13, 256, ws);
        },
        [](const std::vector<int>& in) { return per_block_partials(in, 13, 256); }},
       5},
      // Right for blocks of 32 threads and more: the launch configurations of step 5's tests
      // (blocks of 1 and 2 threads) are what catch it.
      {{"drops_partial_warps<<<3, 16>>>", where + "drops_partial_warps.cu",
        [](const int* in, std::size_t n, Workspace& ws) {
          return mistakes::drops_partial_warps(in, n, 3, 16, ws);
        },
        [](const std::vector<int>& in) { return per_block_partials(in, 3, 16); }},
       1},
  };
}

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake& mistake = GetParam();
  for (std::size_t n : test_sizes()) {
    for (int run = 0; run < mistake.runs_per_size; ++run) {
      const ::testing::AssertionResult verdict =
          matches_cpu(mistake.step, test_input(n, 1000 + run));
      if (!verdict) {
        std::cout << "Rejected as expected. What the learner sees:\n" << verdict.message() << "\n";
        return;
      }
    }
  }
  FAIL() << mistake.step.name << " passed every check: the tests cannot catch this mistake";
}

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"
// (exact-size allocations there); here they only have to run, and say whether the numbers showed
// the bug on this GPU.
void report_numbers(const StepUnderTest& step, const char* tool) {
  std::string rejection;
  for (std::size_t n : test_sizes()) {
    const ::testing::AssertionResult verdict = matches_cpu(step, test_input(n, 1000));
    if (!verdict) {
      rejection = verdict.message();
      break;
    }
  }
  course::report_what_the_numbers_showed(step.name, rejection, tool);
}

TEST(MistakesSeenBySanitizers, PrefetchPastTheEnd) {
  report_numbers({"prefetch_past_the_end<<<1, 250>>>",
                  "tests/01-sum-of-squares/mistakes/prefetch_past_the_end.cu",
                  [](const int* in, std::size_t n, Workspace& ws) {
                    return mistakes::prefetch_past_the_end(in, n, 250, ws);
                  },
                  [](const std::vector<int>& in) { return interleaved_partials(in, 250); }},
                 "memcheck");
}

TEST(MistakesSeenBySanitizers, LastWarpWithoutSyncwarp) {
  report_numbers({"last_warp_without_syncwarp<<<13, 256>>>",
                  "tests/01-sum-of-squares/mistakes/last_warp_without_syncwarp.cu",
                  [](const int* in, std::size_t n, Workspace& ws) {
                    return mistakes::last_warp_without_syncwarp(in, n, 13, 256, ws);
                  },
                  [](const std::vector<int>& in) { return per_block_partials(in, 13, 256); }},
                 "racecheck");
}

INSTANTIATE_TEST_SUITE_P(Mistakes, KnownMistakes, ::testing::ValuesIn(known_mistakes()),
                         [](const ::testing::TestParamInfo<KnownMistake>& info) {
                           const std::string& name = info.param.step.name;
                           return name.substr(0, name.find('<'));
                         });

}  // namespace
}  // namespace sum_of_squares::testing
