// Host tests (no GPU): bad arguments are rejected before anything runs, the empty sum is 0, and
// the host-side arithmetic (head of a misaligned input, the summation depth) is right.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "course/testing.hpp"
#include "warp_reduction.cuh"

namespace warp_reduction {
namespace {

using course::invalid_argument_message;

template <typename T>
std::string message_of(int index, const T* input, std::size_t n, int block_size) {
  Workspace<T> workspace;
  return invalid_argument_message([&] { solution_step<T>(index)(input, n, block_size, workspace); });
}

TEST(WarpReductionArguments, BlockSizesTheKernelsAreNotCompiledForAreRejectedByEveryStep) {
  double dummy[4] = {};
  for (int block_size : {0, 32, 96, 100, 2048, -256}) {
    for (int index = 0; index < kStepFunctionCount; ++index) {
      const std::string message = message_of<double>(index, dummy, 4, block_size);
      EXPECT_NE(message.find("64, 128, 256, 512 or 1024"), std::string::npos)
          << kStepFunctions[index].name << ", block size " << block_size << ": " << message;
      EXPECT_NE(message.find(kStepFunctions[index].name), std::string::npos) << message;
    }
  }
}

TEST(WarpReductionArguments, NullInputWithElementsIsRejected) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string message = message_of<float>(index, nullptr, 5, 256);
    EXPECT_NE(message.find("null pointer"), std::string::npos) << message;
  }
}

TEST(WarpReductionArguments, APointerNotAlignedToItsElementTypeIsRejected) {
  alignas(16) unsigned char bytes[64] = {};
  const auto* misaligned = reinterpret_cast<const double*>(bytes + 4);  // 4 bytes off for 8
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string message = message_of<double>(index, misaligned, 3, 256);
    EXPECT_NE(message.find("not aligned to its element type"), std::string::npos) << message;
  }
}

TEST(WarpReductionArguments, Step1RejectsInputsNeedingMoreBlocksThanAGridHolds) {
  int dummy = 0;
  const std::size_t n = std::size_t{1} << 40;  // 2^33 blocks of 128 elements
  const std::string message = message_of<int>(0, &dummy, n, 64);
  EXPECT_NE(message.find("2^31 - 1 blocks"), std::string::npos) << message;
  Workspace<int> workspace;
  EXPECT_THROW(exercise::step1_complete_unroll<int>(&dummy, n, 64, workspace),
               std::invalid_argument);
}

TEST(WarpReductionArguments, TheEmptySumIsZeroWithoutALaunch) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    Workspace<int> ints;
    Workspace<double> doubles;
    EXPECT_EQ(solution_step<int>(index)(nullptr, 0, 256, ints), 0);
    EXPECT_EQ(exercise_step<double>(index)(nullptr, 0, 1024, doubles), 0.0);
    EXPECT_EQ(ints.launches(), 0);
  }
}

TEST(UnalignedHead, CountsTheElementsBeforeTheFirst16ByteBoundary) {
  alignas(16) int ints[8] = {};
  EXPECT_EQ(unaligned_head(ints, 8), 0u);
  EXPECT_EQ(unaligned_head(ints + 1, 7), 3u);
  EXPECT_EQ(unaligned_head(ints + 3, 5), 1u);
  EXPECT_EQ(unaligned_head(ints + 1, 2), 2u) << "never more than n";
  alignas(16) double doubles[4] = {};
  EXPECT_EQ(unaligned_head(doubles + 1, 3), 1u);
}

TEST(SummationDepth, CountsTheAddsOfAGridStrideThread) {
  // A grid-stride thread adds about n / (multiprocessors * block) elements in a row.
  EXPECT_GE(summation_depth(std::size_t{1} << 26, 256, 132), (std::size_t{1} << 26) / (132 * 256));
  EXPECT_LT(summation_depth(4096, 256, 132), 100u);
}

}  // namespace
}  // namespace warp_reduction
