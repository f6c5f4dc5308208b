// Host tests (no GPU): bad arguments are rejected before anything runs, and the empty sum is 0.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "course/testing.hpp"
#include "reduction.cuh"

namespace reduction {
namespace {

using course::invalid_argument_message;

TEST(ReductionArguments, BlockSizesThatAreNotPowersOfTwoFrom64To1024AreRejected) {
  double dummy = 0;
  Workspace<double> workspace;
  for (int block_size : {0, 32, 96, 100, 2048, -256}) {
    for (int kernel = 1; kernel <= 5; ++kernel) {
      const std::string message = invalid_argument_message([&] {
        reduce(solution_pass<double>(kernel), elements_per_thread(kernel), &dummy,
               10, block_size, workspace);
      });
      EXPECT_NE(message.find("power of two from 64 to 1024"), std::string::npos)
          << "kernel " << kernel << ", block size " << block_size << ": " << message;
    }
  }
}

TEST(ReductionArguments, EachPassChecksItsBlockSizeToo) {
  double dummy = 0;
  EXPECT_THROW(solution::reduce3_pass<double>(&dummy, &dummy, 10, 48), std::invalid_argument);
  EXPECT_THROW(exercise::reduce5_pass<int>(nullptr, nullptr, 10, 2048), std::invalid_argument);
}

TEST(ReductionArguments, NullInputWithElementsIsRejected) {
  Workspace<float> workspace;
  const std::string message = invalid_argument_message(
      [&] { reduce(solution_pass<float>(3), 1, static_cast<const float*>(nullptr), 5, 256,
                   workspace); });
  EXPECT_NE(message.find("null pointer"), std::string::npos) << message;
}

TEST(ReductionArguments, InputsNeedingMoreBlocksThanAGridHoldsAreRejected) {
  double dummy = 0;
  Workspace<double> workspace;
  const std::size_t n = std::size_t{1} << 40;  // 2^34 blocks of 64: more than 2^31 - 1
  const std::string message = invalid_argument_message(
      [&] { reduce(solution_pass<double>(1), 1, &dummy, n, 64, workspace); });
  EXPECT_NE(message.find("2^31 - 1 blocks"), std::string::npos) << message;
  EXPECT_THROW(solution::reduce4_pass<double>(&dummy, &dummy, n, 64), std::invalid_argument);
  EXPECT_THROW(exercise::reduce1_pass<double>(&dummy, &dummy, n, 64), std::invalid_argument);
}

TEST(ReductionArguments, TheEmptySumIsZeroWithoutALaunch) {
  Workspace<int> ints;
  Workspace<double> doubles;
  for (int kernel = 1; kernel <= 5; ++kernel) {
    EXPECT_EQ(reduce(solution_pass<int>(kernel), 1, static_cast<const int*>(nullptr), 0, 256, ints),
              0);
    EXPECT_EQ(reduce(exercise_pass<double>(kernel), 2, static_cast<const double*>(nullptr), 0,
                     128, doubles),
              0.0);
  }
}

}  // namespace
}  // namespace reduction
