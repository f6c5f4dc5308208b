// Host tests (no GPU): the launchers reject what the kernels cannot do.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "course/testing.hpp"
#include "arbitrary_width_tiles.cuh"

namespace arbitrary_width_tiles {
namespace {

using course::invalid_argument_message;

float dummy[1];

// The invalid_argument message of the solution's launchers with dummy (non-null) matrices.
std::string square_message(int width, int tile, const float* M = dummy) {
  return invalid_argument_message([&] { solution::matmul(M, dummy, dummy, width, tile); });
}
std::string rectangular_message(int m, int k, int n, int tile = 16) {
  return invalid_argument_message(
      [&] { solution::matmul_rectangular(dummy, dummy, dummy, m, k, n, tile); });
}

TEST(ArbitraryWidthTilesArguments, NonPositiveSizesAreRejected) {
  for (auto [m, k, n] : {std::tuple{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-5, 3, 3}}) {
    EXPECT_NE(rectangular_message(m, k, n).find("at least 1"), std::string::npos);
  }
  EXPECT_NE(square_message(0, 16).find("at least 1"), std::string::npos);
}

TEST(ArbitraryWidthTilesArguments, MatricesBeyond32BitIndexingAreRejected) {
  EXPECT_NE(square_message(46341, 16).find("32-bit"), std::string::npos);
  // 70000 x 40000 = 2.8e9 elements of M: more than an int indexes.
  EXPECT_NE(rectangular_message(70000, 40000, 1).find("M has"), std::string::npos);
}

TEST(ArbitraryWidthTilesArguments, MoreRowsThanTheGridReachesAreRejected) {
  for (int tile : kTileWidths) {
    const std::string text = rectangular_message(max_rows(tile) + 1, 1, 1, tile);
    EXPECT_NE(text.find("65535 rows of blocks"), std::string::npos) << tile << ": " << text;
    EXPECT_NE(text.find("at most " + std::to_string(max_rows(tile))), std::string::npos) << text;
  }
  EXPECT_EQ(max_rows(2), 131070);
  // The largest square Width (46340) stays inside the narrowest tile's grid.
  EXPECT_GT(max_rows(2), 46340);
}

TEST(ArbitraryWidthTilesArguments, NullPointersAndUnknownTileWidthsAreRejected) {
  EXPECT_NE(square_message(4, 16, nullptr).find("null"), std::string::npos);
  for (int tile : {0, 4, 64}) {
    EXPECT_NE(square_message(4, tile).find("2, 8, 16 or 32"), std::string::npos) << tile;
  }
}

TEST(ArbitraryWidthTilesArguments, StepsThatDoNotExistAreRejected) {
  for (auto matmul : {solution::matmul, exercise::matmul}) {
    for (int only_step : {-1, kSquareStepCount + 1}) {
      const std::string text = invalid_argument_message(
          [&] { matmul(dummy, dummy, dummy, 16, 16, only_step); });
      EXPECT_NE(text.find("only_step must be 0"), std::string::npos) << text;
    }
  }
}

TEST(ArbitraryWidthTilesArguments, TheExerciseShipsTheSameChecks) {
  EXPECT_THROW(exercise::matmul(dummy, dummy, dummy, 0, 16), std::invalid_argument);
  EXPECT_THROW(exercise::matmul_rectangular(dummy, dummy, nullptr, 2, 2, 2, 16),
               std::invalid_argument);
}

}  // namespace
}  // namespace arbitrary_width_tiles
