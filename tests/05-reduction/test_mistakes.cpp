// The tests have teeth: the checker rejects the known-wrong passes in mistakes/, and prints
// what a learner with that bug would see. Races and out-of-bounds reads may well give the
// right numbers: MistakesSeenBySanitizers.* record what the checker saw, and the Meson tests
// "<tool> catches <mistake>" require compute-sanitizer to report them.
#include <gtest/gtest.h>

#include <iostream>

#include "mistakes/mistakes.hpp"
#include "reduction_checks.hpp"

namespace reduction::testing {
namespace {

const char* const kFile = "tests/05-reduction/mistakes/reduction_mistakes.cu";

bool rejected(const PassUnderTest& under_test, PassFn<float> pass_float, PassFn<int> pass_int,
              int attempts) {
  for (int attempt = 0; attempt < attempts; ++attempt) {
    for (std::size_t n : test_sizes()) {
      for (int block_size : {64, 256, 1024}) {
        ::testing::AssertionResult verdict =
            matches_cpu<int>(under_test, pass_int, n, block_size, 1000 + attempt);
        if (verdict) verdict = matches_cpu<float>(under_test, pass_float, n, block_size);
        if (!verdict) {
          std::cout << "Rejected as expected. What the learner sees:\n"
                    << verdict.message() << "\n";
          return true;
        }
      }
    }
  }
  return false;
}

TEST(Mistakes, MissingSyncthreadsIsRejected) {
  EXPECT_TRUE(rejected({"missing_syncthreads", kFile, 1}, mistakes::missing_syncthreads_pass<float>,
                       mistakes::missing_syncthreads_pass<int>, 5))
      << "the tests cannot catch a missing __syncthreads()";
}

TEST(Mistakes, StrideLoopOffByOneIsRejected) {
  EXPECT_TRUE(rejected({"stride_off_by_one", kFile, 1}, mistakes::stride_off_by_one_pass<float>,
                       mistakes::stride_off_by_one_pass<int>, 1))
      << "the tests cannot catch a stride loop that stops one level early";
}

// Run under a sanitizer by the Meson tests "<tool> catches <mistake>"; here they only have to
// run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const PassUnderTest& under_test, PassFn<float> pass_float,
                    PassFn<int> pass_int, const char* tool) {
  const bool caught = rejected(under_test, pass_float, pass_int, 1);
  std::cout << (caught ? "The tests caught " + under_test.name + " on this GPU too.\n"
                       : "The numbers came out right on this GPU: only " + std::string(tool) +
                             " sees " + under_test.name + ".\n");
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

}  // namespace
}  // namespace reduction::testing
