// Host tests (no GPU): the launchers reject what the kernels cannot do.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "boundary_tiled_matmul.cuh"

namespace boundary_tiled_matmul {
namespace {

float dummy[1];

template <typename Call>
std::string message_of(Call call) {
  try {
    call();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(BoundaryTiledMatmulArguments, NonPositiveSizesAreRejected) {
  for (auto [m, k, n] : {std::tuple{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-5, 3, 3}}) {
    EXPECT_NE(message_of([&] { solution::matmul_rectangular(dummy, dummy, dummy, m, k, n, 16); })
                  .find("at least 1"),
              std::string::npos);
  }
  EXPECT_NE(message_of([] { solution::matmul(dummy, dummy, dummy, 0, 16); }).find("at least 1"),
            std::string::npos);
}

TEST(BoundaryTiledMatmulArguments, MatricesBeyond32BitIndexingAreRejected) {
  EXPECT_NE(message_of([] { solution::matmul(dummy, dummy, dummy, 46341, 16); }).find("32-bit"),
            std::string::npos);
  // 1 x 3e9 is too long for one row; 3e9 would not even fit in k, so use m * k.
  EXPECT_NE(message_of([] { solution::matmul_rectangular(dummy, dummy, dummy, 70000, 40000, 1,
                                                         16); })
                .find("M has"),
            std::string::npos);
}

TEST(BoundaryTiledMatmulArguments, NullPointersAndUnknownTileWidthsAreRejected) {
  EXPECT_NE(message_of([] { solution::matmul(nullptr, dummy, dummy, 4, 16); }).find("null"),
            std::string::npos);
  for (int tile : {0, 4, 64}) {
    EXPECT_NE(message_of([&] { solution::matmul(dummy, dummy, dummy, 4, tile); })
                  .find("2, 8, 16 or 32"),
              std::string::npos);
  }
}

TEST(BoundaryTiledMatmulArguments, TheExerciseShipsTheSameChecks) {
  EXPECT_THROW(exercise::matmul(dummy, dummy, dummy, 0, 16), std::invalid_argument);
  EXPECT_THROW(exercise::matmul_rectangular(dummy, dummy, nullptr, 2, 2, 2, 16),
               std::invalid_argument);
}

}  // namespace
}  // namespace boundary_tiled_matmul
