// Host tests (no GPU): bad arguments are rejected by every step before anything runs, with a
// std::invalid_argument that names the step and the argument; and the CPU reference and the
// rounding depth behave as the GPU tests assume.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "course/testing.hpp"
#include "scan.cuh"

namespace scan {
namespace {

using course::invalid_argument_message;

// Host addresses: the checks run before any CUDA call, so they need no device memory.
alignas(256) int buffer_a[64];
alignas(256) int buffer_b[64];

template <typename T>
std::string message_of(int index, const T* input, T* output, long long n) {
  Workspace workspace;
  return invalid_argument_message(
      [&] { solution_step<T>(index)(input, output, n, workspace); });
}

bool says(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(ScanArguments, ANegativeCountIsRejectedByEveryStep) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    for (const long long n : {-1LL, -2048LL, std::numeric_limits<long long>::min()}) {
      const std::string message = message_of<int>(index, buffer_a, buffer_b, n);
      EXPECT_TRUE(says(message, "is negative")) << kStepFunctions[index].name << ": " << message;
      EXPECT_TRUE(says(message, kStepFunctions[index].name)) << message;
    }
  }
}

TEST(ScanArguments, ACountAboveTwoToTheThirtyTwoIsRejectedByEveryStep) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    for (const long long n : {kMaxCount + 1, std::numeric_limits<long long>::max()}) {
      const std::string message = message_of<float>(index, reinterpret_cast<float*>(buffer_a),
                                                     reinterpret_cast<float*>(buffer_b), n);
      EXPECT_TRUE(says(message, "more than 2^32")) << kStepFunctions[index].name << ": "
                                                  << message;
    }
  }
}

TEST(ScanArguments, NullPointersWithElementsAreRejectedAndNamed) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string in = message_of<int>(index, nullptr, buffer_b, 5);
    EXPECT_TRUE(says(in, "input is a null pointer")) << kStepFunctions[index].name << ": " << in;
    const std::string out = message_of<int>(index, buffer_a, nullptr, 5);
    EXPECT_TRUE(says(out, "output is a null pointer")) << kStepFunctions[index].name << ": "
                                                       << out;
  }
}

TEST(ScanArguments, PointersNotAlignedToTheElementAreRejected) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(buffer_a);
  const auto* misaligned = reinterpret_cast<const int*>(bytes + 2);
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string message = message_of<int>(index, misaligned, buffer_b, 3);
    EXPECT_TRUE(says(message, "input is not aligned to its element type"))
        << kStepFunctions[index].name << ": " << message;
  }
}

// Steps 2-4 read and write 16-byte vectors: input + 1 (4 bytes off) is refused there, by name.
// (Step 1 reads and writes one element at a time: 4-byte alignment is all it needs.)
TEST(ScanArguments, PointersNotAlignedTo16BytesAreRejectedByTheVectorSteps) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    if (kStepFunctions[index].number < 2) continue;
    const std::string in = message_of<int>(index, buffer_a + 1, buffer_b, 7);
    EXPECT_TRUE(says(in, "input is not aligned to 16 bytes")) << kStepFunctions[index].name
                                                              << ": " << in;
    const std::string out = message_of<int>(index, buffer_a, buffer_b + 3, 7);
    EXPECT_TRUE(says(out, "output is not aligned to 16 bytes")) << kStepFunctions[index].name
                                                                << ": " << out;
  }
}

TEST(ScanArguments, NothingToScanIsAcceptedWithNullPointers) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    EXPECT_EQ(message_of<int>(index, nullptr, nullptr, 0), "") << kStepFunctions[index].name;
  }
}

TEST(ScanCpuReference, IntsWrapAroundModuloTwoToTheThirtyTwo) {
  const std::vector<int> input = {std::numeric_limits<int>::max(), 1, 5, -7};
  const std::vector<int> scan = cpu_scan(input, input.size());
  EXPECT_EQ(scan[0], std::numeric_limits<int>::max());
  EXPECT_EQ(scan[1], std::numeric_limits<int>::min());  // 2^31 - 1 + 1 wraps
  EXPECT_EQ(scan[2], std::numeric_limits<int>::min() + 5);
  EXPECT_EQ(scan[3], std::numeric_limits<int>::max() - 1);  // and wraps back
}

TEST(ScanCpuReference, FloatsCarryTheirMagnitude) {
  const std::vector<float> input = {0.5f, -0.25f, 2.0f};
  std::vector<double> scan, magnitude;
  cpu_scan(input, input.size(), scan, magnitude);
  EXPECT_EQ(scan, (std::vector<double>{0.5, 0.25, 2.25}));
  EXPECT_EQ(magnitude, (std::vector<double>{0.5, 0.75, 2.75}));
}

TEST(ScanCpuReference, TheDepthNeverExceedsTheAddsOfASerialScanAndGrowsWithTheTiles) {
  EXPECT_EQ(scan_depth(0), 3u);   // one element: no add, plus the two roundings of the checks
  EXPECT_EQ(scan_depth(9), 12u);  // ten elements: at most nine adds, whatever the order
  EXPECT_EQ(scan_depth(1 << 20), 64u + (1u << 12) + 2u);
}

}  // namespace
}  // namespace scan
