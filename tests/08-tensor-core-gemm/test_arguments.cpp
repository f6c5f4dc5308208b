// Host tests (no GPU): every step's launcher rejects what the kernels cannot do, with a message
// that says what to pass instead; the checks come before any CUDA call.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/testing.hpp"
#include "tensor_core_gemm.cuh"

namespace tensor_core_gemm {
namespace {

using course::invalid_argument_message;

alignas(16) __half halves[16];
alignas(16) float floats[4];

std::string message(int step, int m, int k, int n, const __half* A = halves,
                    const __half* B = halves, const float* C = floats) {
  return invalid_argument_message(
      [&] { solution_step(step)(A, B, const_cast<float*>(C), m, k, n); });
}

TEST(TensorCoreGemmArguments, NonPositiveSizesAreRejectedByEveryStep) {
  for (int step = 1; step <= kStepCount; ++step) {
    for (auto [m, k, n] : {std::tuple{0, 8, 1}, {1, 8, 0}, {-5, 8, 3}}) {
      const std::string text = message(step, m, k, n);
      EXPECT_NE(text.find("at least 1"), std::string::npos) << kSteps[step - 1].name << ": " << text;
    }
  }
}

TEST(TensorCoreGemmArguments, KMustBeAPositiveMultipleOf8) {
  for (int step = 1; step <= kStepCount; ++step) {
    for (const int k : {0, 1, 4, 12, 4097, -8}) {
      const std::string text = message(step, 4, k, 4);
      EXPECT_NE(text.find("multiple of 8"), std::string::npos) << "k = " << k << ": " << text;
      EXPECT_NE(text.find("pad A's columns and B's rows with zeros"), std::string::npos) << text;
    }
  }
}

TEST(TensorCoreGemmArguments, MatricesBeyond32BitIndexingAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_NE(message(step, 46344, 46344, 1).find("2^31"), std::string::npos);
    EXPECT_NE(message(step, 1, 46344, 46341).find("2^31"), std::string::npos)
        << "B, counted with its rows padded";
    // 46336 x 46344 is below 2^31, 46336 x 46400 is not: B's copy has rows of round_up(n, 64).
    EXPECT_NE(message(step, 1, 46336, 46337).find("2^31"), std::string::npos)
        << "B, counted with its rows padded to a multiple of 64";
    EXPECT_NE(message(step, 70000, 8, 40000).find("2^31"), std::string::npos) << "C";
  }
}

TEST(TensorCoreGemmArguments, MoreRowsThanTheGridsReachAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    const std::string text = message(step, kMaxRows + 1, 8, 1);
    EXPECT_NE(text.find("rows the grids reach"), std::string::npos) << text;
  }
  EXPECT_EQ(kMaxRows, 65535 * 128);
}

TEST(TensorCoreGemmArguments, NullAndMisalignedPointersAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_NE(message(step, 4, 8, 4, nullptr).find("null"), std::string::npos);
    EXPECT_NE(message(step, 4, 8, 4, halves, halves, nullptr).find("null"), std::string::npos);
    EXPECT_NE(message(step, 4, 8, 4, halves + 1).find("16 bytes"), std::string::npos) << "A";
    EXPECT_NE(message(step, 4, 8, 4, halves, halves + 4).find("16 bytes"), std::string::npos)
        << "B";
    const float* odd = reinterpret_cast<const float*>(reinterpret_cast<const char*>(floats) + 2);
    EXPECT_NE(message(step, 4, 8, 4, halves, halves, odd).find("aligned"), std::string::npos);
  }
}

TEST(TensorCoreGemmArguments, TheExerciseShipsTheSameChecks) {
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_THROW(exercise_step(step)(halves, halves, floats, 4, 12, 4), std::invalid_argument);
  }
}

// Without a GPU (CI), a call with valid arguments gets past the checks and must say that there is
// no GPU, as a course::NoGpuError, for every step. With a GPU the pointers here are host memory,
// so the test skips.
TEST(TensorCoreGemmArguments, WithoutAGpuEveryStepSaysSo) {
  if (course::gpu_available()) GTEST_SKIP() << "a GPU is present: the no-GPU path is not taken";
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_THROW(solution_step(step)(halves, halves, floats, 4, 8, 4), course::NoGpuError)
        << kSteps[step - 1].name;
    EXPECT_THROW(why_step_cannot_run(step), course::NoGpuError);
  }
}

// Asked before any GPU is: a wrong step number is the caller's mistake on every machine.
TEST(TensorCoreGemmArguments, StepNumbersOutsideTheChapterAreRejected) {
  for (const int step : {0, -1, kStepCount + 1}) {
    const std::string text = invalid_argument_message([&] { why_step_cannot_run(step); });
    EXPECT_NE(text.find("there is no step " + std::to_string(step)), std::string::npos) << text;
    const std::string rebuild = invalid_argument_message([&] { step_needs_a_rebuild(step); });
    EXPECT_NE(rebuild.find("step_needs_a_rebuild: there is no step " + std::to_string(step)),
              std::string::npos)
        << rebuild;
  }
}

// Step 3's ring: 4 stages of 48 KiB on compute capability 9.0 and 10.0 (227 KiB per block), 3 on
// 8.0 (163 KiB), 2 on 8.6, 8.9 and 12.0 (99 KiB); below two stages the step cannot run.
TEST(TensorCoreGemmStep3Ring, AsManyStagesAsTheGpuSharedMemoryHolds) {
  EXPECT_EQ(kStep3StageBytes, 48 * 1024);
  EXPECT_EQ(step3_stages_for(227 * 1024), 4);
  EXPECT_EQ(step3_stages_for(163 * 1024), 3);
  EXPECT_EQ(step3_stages_for(99 * 1024), 2);
  EXPECT_EQ(step3_stages_for(96 * 1024), 2);
  EXPECT_EQ(step3_stages_for(96 * 1024 - 1), 0);
  EXPECT_EQ(step3_stages_for(48 * 1024), 0);
}

// A ring depth that exists on no GPU is refused before the GPU is asked (here, with or without
// one); 0 (back to the GPU's own) never asks it.
TEST(TensorCoreGemmStep3Ring, DepthsOutside2To4AreRejected) {
  for (const int stages : {-1, 1, 5}) {
    EXPECT_THROW(detail::override_step3_stages(stages), std::invalid_argument) << stages;
  }
  EXPECT_NO_THROW(detail::override_step3_stages(0));
}

// Step 4's ring: four stages of 48 KiB and 1 KiB of alignment fit in the 227 KiB per block of
// compute capability 9.0 and 10.0, not in 12.0's 99 KiB (why_step_cannot_run says so there).
TEST(TensorCoreGemmStep4Ring, FitsComputeCapability9And10Only) {
  EXPECT_EQ(kRingSharedBytes, 193 * 1024);
  EXPECT_LE(kRingSharedBytes, 227 * 1024);
  EXPECT_GT(kRingSharedBytes, 99 * 1024);
}

// Step 6's persistent blocks: a negative count is refused; setting and clearing an override asks
// nothing of the GPU (with or without one), and the override is what step6_blocks() returns.
TEST(TensorCoreGemmStep6Blocks, OverrideIsCheckedAndUsed) {
  EXPECT_THROW(detail::override_step6_blocks(-1), std::invalid_argument);
  detail::override_step6_blocks(3);
  EXPECT_EQ(step6_blocks(), 3);
  detail::override_step6_blocks(0);
}

// Steps 2 and 5: one grid of every tile; under the tests' override, each tile alone, and the
// tiles right of a tile and below it before it, so that nothing overwrites its stray stores.
TEST(TensorCoreGemmTileLaunches, OneGridOrEachTileAloneAfterTheTilesRightAndBelow) {
  const TileLaunches all = tile_launches(2, 3);
  EXPECT_EQ(all.count(), 1);
  EXPECT_EQ(all.grid().x, 3u);
  EXPECT_EQ(all.grid().y, 2u);
  EXPECT_EQ(all.row(0), 0);
  EXPECT_EQ(all.col(0), 0);

  detail::override_one_launch_per_tile(1);
  const TileLaunches alone = tile_launches(2, 3);
  detail::override_one_launch_per_tile(0);
  ASSERT_EQ(alone.count(), 6);
  EXPECT_EQ(alone.grid().x * alone.grid().y, 1u);
  std::vector<int> launch_of(6, -1);  // tile (row, col) at row * 3 + col
  for (int i = 0; i < alone.count(); ++i) launch_of[alone.row(i) * 3 + alone.col(i)] = i;
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) {
      const int at = launch_of[row * 3 + col];
      ASSERT_GE(at, 0) << "tile (" << row << ", " << col << ") is never launched";
      if (col + 1 < 3) {
        EXPECT_LT(launch_of[row * 3 + col + 1], at) << "the tile right of " << row << ", " << col;
      }
      if (row + 1 < 2) {
        EXPECT_LT(launch_of[(row + 1) * 3 + col], at) << "the tile below " << row << ", " << col;
      }
    }
  }
}

}  // namespace
}  // namespace tensor_core_gemm
