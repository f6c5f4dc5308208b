// Host tests (no GPU needed): every launcher rejects bad arguments with std::invalid_argument
// before it touches the GPU. Run against both implementations: the checks are scaffolding that
// the exercise ships with.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "course/testing.hpp"
#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {
namespace {

using course::invalid_argument_message;

class SumOfSquaresArguments : public ::testing::TestWithParam<Implementation> {
 protected:
  Result run(int step, const int* input, std::size_t n, int blocks, int threads) {
    Workspace workspace;
    const auto impl = GetParam();
    const bool sol = impl == Implementation::solution;
    switch (step) {
      case 1: return sol ? solution::step1_one_thread(input, n, workspace)
                         : exercise::step1_one_thread(input, n, workspace);
      case 2: return sol ? solution::step2_contiguous_chunks(input, n, threads, workspace)
                         : exercise::step2_contiguous_chunks(input, n, threads, workspace);
      case 3: return sol ? solution::step3_interleaved(input, n, threads, workspace)
                         : exercise::step3_interleaved(input, n, threads, workspace);
      case 4: return sol ? solution::step4_grid_stride(input, n, blocks, threads, workspace)
                         : exercise::step4_grid_stride(input, n, blocks, threads, workspace);
      default: return sol ? solution::step5_block_reduction(input, n, blocks, threads, workspace)
                          : exercise::step5_block_reduction(input, n, blocks, threads, workspace);
    }
  }
};

// The error's message, or "" if nothing (or something else) was thrown.
const int* const kNoInput = nullptr;

TEST_P(SumOfSquaresArguments, NullInputWithElementsIsRejected) {
  for (int step = 1; step <= 5; ++step) {
    const std::string message =
        invalid_argument_message([&] { run(step, kNoInput, 10, 4, 64); });
    EXPECT_NE(message.find("null pointer"), std::string::npos) << "step " << step << ": " << message;
  }
}

TEST_P(SumOfSquaresArguments, ZeroOrTooManyThreadsAreRejected) {
  int dummy = 0;
  for (int step = 2; step <= 5; ++step) {
    for (int threads : {0, -32, 1025, 4096}) {
      const std::string message =
          invalid_argument_message([&] { run(step, &dummy, 1, 4, threads); });
      EXPECT_NE(message.find("between 1 and 1024"), std::string::npos)
          << "step " << step << ", threads " << threads << ": " << message;
    }
  }
}

TEST_P(SumOfSquaresArguments, ZeroBlocksAreRejected) {
  int dummy = 0;
  for (int step = 4; step <= 5; ++step) {
    const std::string message = invalid_argument_message([&] { run(step, &dummy, 1, 0, 64); });
    EXPECT_NE(message.find("blocks must be at least 1"), std::string::npos) << message;
  }
}

TEST_P(SumOfSquaresArguments, TreeReductionRejectsABlockSizeThatIsNotAPowerOfTwo) {
  int dummy = 0;
  for (int threads : {3, 96, 1000}) {
    const std::string message = invalid_argument_message([&] { run(5, &dummy, 1, 4, threads); });
    EXPECT_NE(message.find("power of two"), std::string::npos) << threads << ": " << message;
  }
}

TEST_P(SumOfSquaresArguments, PointerChaseRejectsEmptyInputAndZeroLoads) {
  const std::uint32_t* no_next = nullptr;
  std::uint32_t dummy = 0;
  const bool sol = GetParam() == Implementation::solution;
  auto chase = [sol](const std::uint32_t* next, std::size_t n, std::size_t loads) {
    return sol ? solution::step0_pointer_chase(next, n, loads)
               : exercise::step0_pointer_chase(next, n, loads);
  };
  EXPECT_THROW(chase(no_next, 10, 10), std::invalid_argument);
  EXPECT_THROW(chase(&dummy, 0, 10), std::invalid_argument);
  EXPECT_THROW(chase(&dummy, 1, 0), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresArguments,
                         ::testing::Values(Implementation::solution));
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresArguments,
                         ::testing::Values(Implementation::exercise));

}  // namespace
}  // namespace sum_of_squares::testing
