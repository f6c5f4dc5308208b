// Host tests (no GPU): bad arguments are rejected by every step before anything runs, with a
// std::invalid_argument that names the step and the argument; and the FLOP count and the CPU
// reference behave as the GPU tests assume.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention.cuh"
#include "course/testing.hpp"

namespace attention {
namespace {

using course::invalid_argument_message;

// Host addresses: the checks run before any CUDA call, so they need no device memory. Each
// holds one head of 128 dimensions for up to 4 tokens.
alignas(256) __half q_array[512];
alignas(256) __half k_array[512];
alignas(256) __half v_array[512];
alignas(256) __half o_array[512];

std::string message_of(int index, const Shape& shape, const __half* q = q_array,
                       const __half* k = k_array, const __half* v = v_array,
                       __half* o = o_array) {
  Workspace workspace;
  return invalid_argument_message([&] { solution_step(index)(q, k, v, o, shape, workspace); });
}

bool says(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(AttentionArguments, HeadDimensionsOtherThan64And128AreRejectedByEveryStep) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    for (const int d : {0, 32, 96, 256}) {
      const std::string message = message_of(index, {1, 1, 2, d, false});
      EXPECT_TRUE(says(message, "head_dim = " + std::to_string(d) + " is not supported"))
          << kStepFunctions[index].name << ": " << message;
      EXPECT_TRUE(says(message, kStepFunctions[index].name)) << message;
    }
  }
}

TEST(AttentionArguments, SizesBelowOneOrAboveTheLimitsAreRejectedAndNamed) {
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const char* name = kStepFunctions[index].name;
    for (const int bad : {0, -1}) {
      EXPECT_TRUE(says(message_of(index, {bad, 1, 2, 64, false}), "batch = ")) << name;
      EXPECT_TRUE(says(message_of(index, {1, bad, 2, 64, false}), "heads = ")) << name;
      EXPECT_TRUE(says(message_of(index, {1, 1, bad, 64, false}), "tokens = ")) << name;
    }
    EXPECT_TRUE(says(message_of(index, {static_cast<int>(kMaxBatch) + 1, 1, 2, 64, false}),
                     "batch = "))
        << name;
    EXPECT_TRUE(says(message_of(index, {1, static_cast<int>(kMaxHeads) + 1, 2, 64, false}),
                     "heads = "))
        << name;
    const int too_long = static_cast<int>(kStepFunctions[index].max_tokens) + 1;
    const std::string message = message_of(index, {1, 1, too_long, 64, false});
    EXPECT_TRUE(says(message, "tokens = " + std::to_string(too_long))) << name << ": " << message;
    EXPECT_TRUE(says(message, std::to_string(kStepFunctions[index].max_tokens))) << message;
  }
}

TEST(AttentionArguments, NullPointersAreRejectedAndNamed) {
  const Shape shape{1, 1, 2, 64, false};
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const char* name = kStepFunctions[index].name;
    EXPECT_TRUE(says(message_of(index, shape, nullptr), "q is a null pointer")) << name;
    EXPECT_TRUE(says(message_of(index, shape, q_array, nullptr), "k is a null pointer")) << name;
    EXPECT_TRUE(says(message_of(index, shape, q_array, k_array, nullptr), "v is a null pointer"))
        << name;
    EXPECT_TRUE(says(message_of(index, shape, q_array, k_array, v_array, nullptr),
                     "o is a null pointer"))
        << name;
  }
}

TEST(AttentionArguments, PointersNotAlignedTo16BytesAreRejected) {
  const Shape shape{1, 1, 2, 64, false};
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string message = message_of(index, shape, q_array, k_array + 1);
    EXPECT_TRUE(says(message, "k is not aligned to 16 bytes"))
        << kStepFunctions[index].name << ": " << message;
  }
}

TEST(AttentionArguments, AnOutputOverlappingAnInputIsRejected) {
  const Shape shape{1, 1, 2, 64, false};  // 128 halves each
  for (int index = 0; index < kStepFunctionCount; ++index) {
    const std::string message = message_of(index, shape, q_array, k_array, v_array, q_array + 64);
    EXPECT_TRUE(says(message, "o overlaps q, k or v"))
        << kStepFunctions[index].name << ": " << message;
  }
}

TEST(AttentionArguments, FlopsCountBothProductsAndHalfOfThemWhenCausal) {
  EXPECT_DOUBLE_EQ(flops({2, 3, 1024, 128, false}), 4.0 * 2 * 3 * 1024.0 * 1024.0 * 128);
  EXPECT_DOUBLE_EQ(flops({2, 3, 1024, 128, true}), 2.0 * 2 * 3 * 1024.0 * 1024.0 * 128);
}

// Causal row 0 sees key 0 alone: its output is V's row 0, exactly. Row 1 of two equal keys
// averages V's two rows.
TEST(AttentionReference, CausalFirstRowIsTheFirstValueAndEqualScoresAverage) {
  const Shape shape{1, 1, 2, 64, true};
  std::vector<float> q(128, 0.5f), k(128, 0.25f), v(128);
  for (int i = 0; i < 128; ++i) v[i] = static_cast<float>(i) / 8;
  const std::vector<double> out = cpu_attention_rows(q, k, v, shape, 0, 0, {0, 1});
  for (int c = 0; c < 64; ++c) {
    EXPECT_EQ(out[c], v[c]) << c;
    EXPECT_NEAR(out[64 + c], (v[c] + v[64 + c]) / 2, 1e-12) << c;
  }
}

// Scores far past exp's range (1e4): the reference subtracts the max and stays finite; a row
// whose largest score is unique gets that key's value.
TEST(AttentionReference, HugeScoresGiveTheLargestKeysValue) {
  const Shape shape{1, 1, 3, 64, false};
  std::vector<float> q(192, 0.0f), k(192, 0.0f), v(192);
  for (int c = 0; c < 64; ++c) q[c] = 100.0f, k[64 + c] = 10.0f, k[128 + c] = -10.0f;
  for (int i = 0; i < 192; ++i) v[i] = static_cast<float>(i % 64) - 32.0f + (i / 64);
  const std::vector<double> out = cpu_attention_rows(q, k, v, shape, 0, 0, {0});
  for (int c = 0; c < 64; ++c) EXPECT_EQ(out[c], v[64 + c]) << c;
}

}  // namespace
}  // namespace attention
