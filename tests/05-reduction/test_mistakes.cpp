// The tests have teeth: the checker rejects the known-wrong passes in mistakes/, and prints
// what a learner with that bug would see. The volatile-only last warp is a data race that may
// well give the right numbers: the test records what the checker saw, and the Meson test
// "racecheck catches last_warp_volatile_only" requires compute-sanitizer to report it.
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

// Racecheck runs this one (see the file comment); here it only has to run without crashing.
TEST(RacecheckOnlyMistakes, LastWarpVolatileOnly) {
  const bool caught =
      rejected({"last_warp_volatile_only", kFile, 2}, mistakes::last_warp_volatile_only_pass<float>,
               mistakes::last_warp_volatile_only_pass<int>, 1);
  std::cout << (caught ? "The tests caught the race on this GPU.\n"
                       : "The numbers came out right on this GPU: only racecheck sees the race.\n");
}

}  // namespace
}  // namespace reduction::testing
