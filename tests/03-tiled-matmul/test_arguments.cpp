// Host tests (no GPU): the launchers reject what the kernel cannot do.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "course/testing.hpp"
#include "tiled_matmul.cuh"

namespace tiled_matmul {
namespace {

float dummy[1];

using Matmul = void (*)(const float*, const float*, float*, int, int, int);

std::string message_of(Matmul matmul, int width, int tile, int only_step = 0) {
  return course::invalid_argument_message(
      [&] { matmul(dummy, dummy, dummy, width, tile, only_step); });
}

TEST(TiledMatmulArguments, WidthThatIsNotAMultipleOfTheTilePointsToChapter04) {
  for (Matmul matmul : {solution::matmul, exercise::matmul}) {
    for (int tile : kTileWidths) {
      for (int width : {1, tile - 1, tile + 1, 3 * tile + 5, 1000 + (tile == 8 ? 1 : 0)}) {
        const std::string message = message_of(matmul, width, tile);
        EXPECT_NE(message.find("not a multiple"), std::string::npos) << width << ": " << message;
        EXPECT_NE(message.find("04-arbitrary-width-tiles"), std::string::npos) << message;
      }
    }
  }
}

TEST(TiledMatmulArguments, TileWidthsTheKernelIsNotCompiledForAreRejected) {
  for (int tile : {0, 4, 12, 64}) {
    EXPECT_NE(message_of(solution::matmul, 64, tile).find("8, 16 or 32"), std::string::npos);
  }
}

TEST(TiledMatmulArguments, StepsThatDoNotExistAreRejected) {
  for (Matmul matmul : {solution::matmul, exercise::matmul}) {
    for (int only_step : {-1, kStepCount + 1}) {
      const std::string message = message_of(matmul, 64, 16, only_step);
      EXPECT_NE(message.find("only_step must be 0"), std::string::npos) << message;
    }
  }
}

TEST(TiledMatmulArguments, BadMatricesAreRejectedAsInChapter02) {
  EXPECT_NE(message_of(solution::matmul, 0, 16).find("at least 1"), std::string::npos);
  EXPECT_NE(message_of(solution::matmul, 46368, 16).find("32-bit"), std::string::npos);
  EXPECT_THROW(solution::matmul(nullptr, dummy, dummy, 16, 16), std::invalid_argument);
}

}  // namespace
}  // namespace tiled_matmul
