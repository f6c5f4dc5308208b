// GPU tests of chapter 04 against the solution (suite "solution") and the exercise (suite
// "exercise"): every Width from 1 to 70 for tile widths 2, 8 and 16, three large odd-ish
// widths, and rectangular shapes; every element against the double-precision CPU product.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "boundary_tiled_matmul.cuh"
#include "course/matmul_testing.hpp"
#include "course/testing.hpp"

namespace boundary_tiled_matmul {
namespace {

using course::matmul::Shape;
enum class Implementation { solution, exercise };

std::string file_of(Implementation impl, const char* file) {
  return std::string(impl == Implementation::solution ? "solutions" : "exercises") +
         "/04-arbitrary-width-tiles/" + file;
}

course::matmul::MatmulUnderTest square(Implementation impl, int tile) {
  return {"any-Width tiled matmul, TILE_WIDTH " + std::to_string(tile),
          file_of(impl, "square_any_width.cu"),
          [impl, tile](const float* M, const float* N, float* P, Shape shape) {
            if (impl == Implementation::solution) {
              solution::matmul(M, N, P, shape.n, tile);
            } else {
              exercise::matmul(M, N, P, shape.n, tile);
            }
          }};
}

course::matmul::MatmulUnderTest rectangular(Implementation impl, int tile) {
  return {"rectangular tiled matmul, TILE_WIDTH " + std::to_string(tile),
          file_of(impl, "rectangular.cu"),
          [impl, tile](const float* M, const float* N, float* P, Shape s) {
            if (impl == Implementation::solution) {
              solution::matmul_rectangular(M, N, P, s.m, s.k, s.n, tile);
            } else {
              exercise::matmul_rectangular(M, N, P, s.m, s.k, s.n, tile);
            }
          }};
}

// ---- Square, steps 1-3 ---------------------------------------------------------------------
using SquareCase = std::tuple<Implementation, int, int>;  // implementation, tile, Width

std::vector<SquareCase> square_cases(Implementation impl) {
  std::vector<SquareCase> all;
  for (int tile : {2, 8, 16}) {
    for (int width = 1; width <= 70; ++width) all.emplace_back(impl, tile, width);
  }
  if (!course::under_sanitizer()) {  // minutes under compute-sanitizer; seconds without
    for (int tile : {16, 32}) {
      for (int width : {1000, 1023, 1025}) all.emplace_back(impl, tile, width);
    }
  }
  return all;
}

std::string square_name(const ::testing::TestParamInfo<SquareCase>& info) {
  return "tile" + std::to_string(std::get<1>(info.param)) + "_Width" +
         std::to_string(std::get<2>(info.param));
}

class AnyWidthTiledMatmul : public ::testing::TestWithParam<SquareCase> {};

TEST_P(AnyWidthTiledMatmul, MatchesCpuForEveryWidth) {
  const auto [impl, tile, width] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(square(impl, tile), Shape::square(width)));
}

INSTANTIATE_TEST_SUITE_P(Solution, AnyWidthTiledMatmul,
                         ::testing::ValuesIn(square_cases(Implementation::solution)), square_name);
INSTANTIATE_TEST_SUITE_P(Exercise, AnyWidthTiledMatmul,
                         ::testing::ValuesIn(square_cases(Implementation::exercise)), square_name);

// ---- The README's example: Width 3 with 2 x 2 tiles -----------------------------------------
class ReadmeExample : public ::testing::TestWithParam<Implementation> {};

TEST_P(ReadmeExample, ThreeByThreeWithTwoByTwoTiles) {
  EXPECT_TRUE(course::matmul::matches_cpu(square(GetParam(), 2), Shape::square(3)));
}

INSTANTIATE_TEST_SUITE_P(Solution, ReadmeExample, ::testing::Values(Implementation::solution));
INSTANTIATE_TEST_SUITE_P(Exercise, ReadmeExample, ::testing::Values(Implementation::exercise));

// ---- Rectangular, step 4 --------------------------------------------------------------------
using RectangularCase = std::tuple<Implementation, int, Shape>;

std::vector<RectangularCase> rectangular_cases(Implementation impl) {
  const Shape shapes[] = {{1, 1000, 1}, {33, 17, 65}, {1000, 1, 1000}, {1, 1, 1}, {2, 3, 4},
                          {7, 300, 5}, {64, 1, 64},  {17, 33, 1},     {1, 64, 300}, {129, 70, 31}};
  std::vector<RectangularCase> all;
  for (int tile : {2, 8, 16, 32}) {
    for (const Shape& shape : shapes) all.emplace_back(impl, tile, shape);
  }
  // The tallest P that argument checks let through with the narrowest tile: 65535 rows of
  // blocks, the whole of gridDim.y.
  all.emplace_back(impl, 2, Shape{max_rows(2), 1, 3});
  return all;
}

std::string rectangular_name(const ::testing::TestParamInfo<RectangularCase>& info) {
  const Shape s = std::get<2>(info.param);
  return "tile" + std::to_string(std::get<1>(info.param)) + "_" + std::to_string(s.m) + "x" +
         std::to_string(s.k) + "x" + std::to_string(s.n);
}

class RectangularTiledMatmul : public ::testing::TestWithParam<RectangularCase> {};

TEST_P(RectangularTiledMatmul, MatchesCpuForAnyShape) {
  const auto [impl, tile, shape] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(rectangular(impl, tile), shape));
}

INSTANTIATE_TEST_SUITE_P(Solution, RectangularTiledMatmul,
                         ::testing::ValuesIn(rectangular_cases(Implementation::solution)),
                         rectangular_name);
INSTANTIATE_TEST_SUITE_P(Exercise, RectangularTiledMatmul,
                         ::testing::ValuesIn(rectangular_cases(Implementation::exercise)),
                         rectangular_name);

}  // namespace
}  // namespace boundary_tiled_matmul
