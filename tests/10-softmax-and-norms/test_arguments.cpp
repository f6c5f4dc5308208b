// Host tests (no GPU): bad arguments are rejected by every step before anything runs, with a
// std::invalid_argument that names the step and the argument and says what to pass; and the CPU
// references behave as the GPU tests assume (the policy for a fully masked row included).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "course/testing.hpp"
#include "softmax_and_norms.cuh"

namespace softmax_and_norms {
namespace {

using course::invalid_argument_message;

// Host addresses: the checks run before any CUDA call, so they need no device memory.
alignas(256) float floats_a[64];
alignas(256) float floats_b[64];
alignas(256) __half halves[4][64];
alignas(256) __nv_bfloat16 bfloat16s[4][64];

std::string softmax_message(int index, const float* input, float* output, long long rows,
                            long long cols) {
  Workspace workspace;
  return invalid_argument_message(
      [&] { solution_softmax(index)(input, output, rows, cols, workspace); });
}

// LayerNorm (index 0) or RMSNorm (1) on elements of type T, with these arguments.
template <typename T>
std::string norm_message(int index, const T* input, T* output, const T* gamma, const T* beta,
                         long long rows, long long cols, float epsilon = 1e-5f) {
  return invalid_argument_message([&] {
    if (index == 0) {
      layer_norm_of<T>(true)(input, output, gamma, beta, rows, cols, epsilon);
    } else {
      rms_norm_of<T>(true)(input, output, gamma, rows, cols, epsilon);
    }
  });
}

bool says(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(SoftmaxArguments, ZeroOrNegativeRowsAndColumnsAreRejectedByEveryStep) {
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    const char* name = kSoftmaxSteps[index].name;
    for (const long long rows : {0LL, -1LL, std::numeric_limits<long long>::min()}) {
      const std::string message = softmax_message(index, floats_a, floats_b, rows, 4);
      EXPECT_TRUE(says(message, "rows = " + std::to_string(rows) + " is not positive"))
          << name << ": " << message;
      EXPECT_TRUE(says(message, name)) << message;
    }
    for (const long long cols : {0LL, -5LL}) {
      const std::string message = softmax_message(index, floats_a, floats_b, 2, cols);
      EXPECT_TRUE(says(message, "cols = " + std::to_string(cols) + " is not positive"))
          << name << ": " << message;
    }
    EXPECT_TRUE(says(softmax_message(index, floats_a, floats_b, kMaxRows + 1, 4),
                     "more than 2^31 - 1"));
  }
}

TEST(SoftmaxArguments, RowsTooLongToHoldOnChipAreSentToStepFour) {
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    const StepFunction& step = kSoftmaxSteps[index];
    if (step.max_cols < kMaxCols) {  // steps 2 and 3 (a block's registers), 6 (a cluster's)
      // (One column past the step's own limit: a step that took the row would launch its kernel
      // on these host arrays where a GPU is present.)
      const std::string message = softmax_message(index, floats_a, floats_b, 1, step.max_cols + 1);
      EXPECT_TRUE(says(message, "holds on chip")) << step.name << ": " << message;
      EXPECT_TRUE(says(message, "step4_online_softmax")) << step.name << ": " << message;
    } else {
      EXPECT_EQ(softmax_message(index, floats_a, floats_b, 1, kMaxCols + 1).empty(), false)
          << step.name;
    }
  }
}

TEST(SoftmaxArguments, NullPointersAreRejectedAndNamed) {
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    const std::string in = softmax_message(index, nullptr, floats_b, 2, 3);
    EXPECT_TRUE(says(in, "input is a null pointer")) << kSoftmaxSteps[index].name << ": " << in;
    const std::string out = softmax_message(index, floats_a, nullptr, 2, 3);
    EXPECT_TRUE(says(out, "output is a null pointer")) << kSoftmaxSteps[index].name << ": "
                                                       << out;
  }
}

TEST(SoftmaxArguments, PointersNotAlignedToTheElementAreRejected) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(floats_a);
  const auto* misaligned = reinterpret_cast<const float*>(bytes + 2);
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    const std::string message = softmax_message(index, misaligned, floats_b, 1, 3);
    EXPECT_TRUE(says(message, "input is not aligned to its element type"))
        << kSoftmaxSteps[index].name << ": " << message;
  }
}

// Steps 3 and 4 read and write 16-byte vectors: a pointer 4 bytes off is refused there, by name
// (steps 1 and 2 read one float at a time: 4-byte alignment is all they need).
TEST(SoftmaxArguments, PointersNotAlignedTo16BytesAreRejectedByTheVectorSteps) {
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    const StepFunction& step = kSoftmaxSteps[index];
    const std::string in = softmax_message(index, floats_a + 1, floats_b, 1, 3);
    const std::string out = softmax_message(index, floats_a, floats_b + 3, 1, 3);
    if (step.number < 3) {
      EXPECT_FALSE(says(in, "16 bytes")) << step.name << ": " << in;
      continue;
    }
    EXPECT_TRUE(says(in, "input is not aligned to 16 bytes")) << step.name << ": " << in;
    EXPECT_TRUE(says(out, "output is not aligned to 16 bytes")) << step.name << ": " << out;
  }
}

// Both norms on elements of type T (`type`: "FP16", "BF16", which the messages name after the
// step), with four host arrays of 64 elements as input, output, gamma and beta.
template <typename T>
void expect_both_norms_reject_bad_arguments(T (&arrays)[4][64], const std::string& type) {
  const T* x = arrays[0];
  T* y = arrays[1];
  const T* gamma = arrays[2];
  const T* beta = arrays[3];
  for (int index = 0; index < kNormStepCount; ++index) {
    const std::string name = std::string(kNormSteps[index].name) + " (" + type + ")";
    EXPECT_TRUE(says(norm_message<T>(index, x, y, gamma, beta, 0, 8), name + ": rows = 0"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, x, y, gamma, beta, 0, 8), "rows = 0 is not positive"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, x, y, gamma, beta, 2, 0), "cols = 0 is not positive"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, x, y, gamma, beta, 1, kMaxOnChipCols + 1),
                     "holds on chip"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, nullptr, y, gamma, beta, 2, 8),
                     "input is a null pointer"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, x, y, nullptr, beta, 2, 8), "gamma is a null pointer"))
        << name;
    EXPECT_TRUE(says(norm_message<T>(index, x, y + 4, gamma, beta, 2, 8),
                     "output is not aligned to 16 bytes"))
        << name;
    const auto* odd = reinterpret_cast<const T*>(reinterpret_cast<const char*>(x) + 1);
    EXPECT_TRUE(says(norm_message<T>(index, odd, y, gamma, beta, 2, 8),
                     "input is not aligned to its element type"))
        << name;
    for (const float epsilon : {0.0f, -1e-5f, std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::quiet_NaN()}) {
      EXPECT_TRUE(says(norm_message<T>(index, x, y, gamma, beta, 2, 8, epsilon),
                       "is not a positive finite number"))
          << name << " with epsilon " << epsilon;
    }
  }
  // LayerNorm needs beta; RMSNorm has none.
  EXPECT_TRUE(says(norm_message<T>(0, x, y, gamma, nullptr, 2, 8), "beta is a null pointer"));
}

TEST(NormArguments, BadShapesPointersAndEpsilonAreRejectedByBothNorms) {
  expect_both_norms_reject_bad_arguments(halves, "FP16");
}

TEST(NormArguments, TheBf16OverloadsRejectTheSameBadArgumentsAndSayBf16) {
  expect_both_norms_reject_bad_arguments(bfloat16s, "BF16");
}

TEST(SoftmaxCpuReference, RowsSumToOneAndAFullyMaskedRowIsZero) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f, std::log(3.0f), -inf, -inf, -inf, -inf, 1e4f, 1e4f, -1e4f};
  const std::vector<double> p = cpu_softmax(x, 3, 3);
  EXPECT_NEAR(p[0], 0.25, 1e-7);
  EXPECT_NEAR(p[1], 0.75, 1e-7);
  EXPECT_EQ(p[2], 0.0);
  for (int c = 3; c < 6; ++c) EXPECT_EQ(p[c], 0.0) << "a fully masked row is 0, not NaN";
  EXPECT_NEAR(p[6], 0.5, 1e-12) << "1e4 must not overflow the reference";
  EXPECT_EQ(p[8], 0.0);
}

TEST(NormCpuReference, LayerNormAndRmsNormOfASmallRow) {
  const std::vector<float> x = {10001.0f, 9999.0f, 10001.0f, 9999.0f};
  const std::vector<float> gamma = {1.0f, 2.0f, 1.0f, 1.0f}, beta = {0.5f, 0.0f, 0.0f, 0.0f};
  const NormReference layer = cpu_norm(x, gamma, beta, 1, 4, 0.0);
  EXPECT_DOUBLE_EQ(layer.shift[0], 10000.0);
  EXPECT_DOUBLE_EQ(layer.output[0], 1.5);   // (1 / 1) * 1 + 0.5
  EXPECT_DOUBLE_EQ(layer.output[1], -2.0);  // (-1 / 1) * 2
  const NormReference rms = cpu_norm({3.0f, 4.0f}, {1.0f, 1.0f}, {}, 1, 2, 0.0);
  EXPECT_DOUBLE_EQ(rms.shift[0], 0.0);
  EXPECT_NEAR(rms.output[0], 3.0 / std::sqrt(12.5), 1e-15);
}

}  // namespace
}  // namespace softmax_and_norms
