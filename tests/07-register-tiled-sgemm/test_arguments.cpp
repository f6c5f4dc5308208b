// Host tests (no GPU): the launchers reject what the kernels cannot do, and the host-side
// choices (16-byte path, tiling) are right.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "course/testing.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm {
namespace {

using course::invalid_argument_message;

alignas(16) float dummy[4];

std::string message(int step, int m, int k, int n, const float* M = dummy) {
  return invalid_argument_message([&] { solution_step(step)(M, dummy, dummy, m, k, n); });
}

TEST(RegisterTiledSgemmArguments, NonPositiveSizesAreRejectedByEveryStep) {
  for (int step = 1; step <= kStepCount; ++step) {
    for (auto [m, k, n] : {std::tuple{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-5, 3, 3}}) {
      const std::string text = message(step, m, k, n);
      EXPECT_NE(text.find("at least 1"), std::string::npos) << kSteps[step - 1].name << ": " << text;
    }
  }
}

TEST(RegisterTiledSgemmArguments, MatricesBeyond32BitIndexingAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_NE(message(step, 46341, 46341, 1).find("32-bit"), std::string::npos);
    EXPECT_NE(message(step, 70000, 40000, 1).find("M has"), std::string::npos);
    EXPECT_NE(message(step, 1, 40000, 70000).find("N has"), std::string::npos);
    EXPECT_NE(message(step, 70000, 1, 40000).find("P has"), std::string::npos);
  }
}

// k = n = 1 keeps every element count small: only the grid's rows of blocks run out.
TEST(RegisterTiledSgemmArguments, MoreRowsThanTheGridsReachAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    const std::string text = message(step, kMaxRows + 1, 1, 1);
    EXPECT_NE(text.find("65535 rows of blocks"), std::string::npos)
        << kSteps[step - 1].name << ": " << text;
  }
  EXPECT_EQ(kMaxRows, 4194240);
}

TEST(RegisterTiledSgemmArguments, NullPointersAreRejected) {
  for (int step = 1; step <= kStepCount; ++step) {
    EXPECT_NE(message(step, 4, 4, 4, nullptr).find("null"), std::string::npos);
  }
}

TEST(RegisterTiledSgemmArguments, TilingsThatAreNotCompiledAreRejected) {
  WarpTiling odd = kLargeTiles;
  odd.thread_m = 6;
  const std::string text = invalid_argument_message(
      [&] { solution::step4_warptiling(dummy, dummy, dummy, 4, 4, 4, odd); });
  EXPECT_NE(text.find("is not compiled"), std::string::npos) << text;
  EXPECT_NE(text.find(kLargeTiles.text()), std::string::npos) << text;
  EXPECT_THROW(exercise::step4_warptiling(dummy, dummy, dummy, 4, 4, 4, odd),
               std::invalid_argument);
}

TEST(RegisterTiledSgemmArguments, TheExerciseShipsTheSameChecks) {
  EXPECT_THROW(exercise::step1_1d_blocktiling(dummy, dummy, dummy, 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(exercise::step5_double_buffering(nullptr, dummy, dummy, 1, 1, 1),
               std::invalid_argument);
}

TEST(VectorLoads, ApplyOnlyToRowsOf16BytesAndAlignedMatrices) {
  EXPECT_TRUE(vector_loads_apply(dummy, dummy, dummy, 8, 12));
  EXPECT_FALSE(vector_loads_apply(dummy, dummy, dummy, 6, 12)) << "k not a multiple of 4";
  EXPECT_FALSE(vector_loads_apply(dummy, dummy, dummy, 8, 333)) << "n not a multiple of 4";
  EXPECT_FALSE(vector_loads_apply(dummy + 1, dummy, dummy, 8, 12)) << "M 4 bytes off";
  EXPECT_FALSE(vector_loads_apply(dummy, dummy, dummy + 2, 8, 12)) << "P 8 bytes off";
}

TEST(WarpTilingChoice, TakesTheWideTilesOnlyWhenTheyGiveTwoBlocksPerMultiprocessor) {
  EXPECT_EQ(choose_warp_tiling(4096, 4096, 132), kWideTiles);  // 1024 blocks
  EXPECT_EQ(choose_warp_tiling(4096, 333, 132), kSmallTiles);  // 96 blocks only
  EXPECT_EQ(choose_warp_tiling(100, 100, 132), kSmallTiles);
  EXPECT_EQ(choose_warp_tiling(4096, 333, 40), kWideTiles);    // 96 >= 80 on a small GPU
}

TEST(DoubleBufferedTilingChoice, TakesNarrowTilesWhenTheWideOnesLeaveMultiprocessorsIdle) {
  EXPECT_EQ(choose_double_buffered_tiling(4096, 4096, 132), kWideTiles);    // 1024 tiles
  EXPECT_EQ(choose_double_buffered_tiling(4097, 4097, 132), kWideTiles);    // 1089 tiles
  EXPECT_EQ(choose_double_buffered_tiling(4096, 333, 132), kNarrowTiles);   // 96 < 132
  EXPECT_EQ(choose_double_buffered_tiling(4096, 333, 96), kWideTiles);      // 96 on 96
  EXPECT_EQ(choose_double_buffered_tiling(1, 1, 132), kNarrowTiles);
}

TEST(SplitKChoice, TakesTheFewestSplitsThatFillTheWavesAndKeeps128OfKPerSplit) {
  EXPECT_EQ(choose_k_splits(1024, 4096, 264, 132), 1) << "4096^2: 4 waves, the last 88% full";
  // 4097^2: 1089 tiles are 4 full waves and one 12% full; 3 splits fill 95%.
  EXPECT_EQ(choose_k_splits(1089, 4097, 264, 132), 3);
  // 200 tiles fill 76% of a wave; 5 splits fill 95% of four (8 would leave 125 of k each).
  EXPECT_EQ(choose_k_splits(200, 1000, 264, 132), 5);
  EXPECT_EQ(choose_k_splits(200, 200, 264, 132), 1) << "k = 200 cannot give two splits of 128";
  // Fewer tiles than multiprocessors: no split. 4096 x 1000 x 333 with 128 x 128 tiles (96) ran
  // at 117 us whole and 120 us in 5 splits on the H100; with 96 x 112 tiles (129), in 2 splits
  // 101 us against 92 us whole.
  EXPECT_EQ(choose_k_splits(96, 1000, 264, 132), 1);
  EXPECT_EQ(choose_k_splits(129, 1000, 264, 132), 1);
}

TEST(RegisterTiledSgemmArguments, Step5RejectsTilingsItDoesNotCompileAndBadSplits) {
  const std::string tiling = invalid_argument_message([&] {
    solution::step5_double_buffering(dummy, dummy, dummy, 4, 4, 4, kSmallTiles, 1);
  });
  EXPECT_NE(tiling.find("not compiled for double buffering"), std::string::npos) << tiling;
  for (int splits : {0, -1, 65}) {
    const std::string text = invalid_argument_message([&] {
      solution::step5_double_buffering(dummy, dummy, dummy, 4, 4, 4, kLargeTiles, splits);
    });
    EXPECT_NE(text.find("k_splits must be 1 to 64"), std::string::npos) << splits << ": " << text;
  }
}

}  // namespace
}  // namespace register_tiled_sgemm
