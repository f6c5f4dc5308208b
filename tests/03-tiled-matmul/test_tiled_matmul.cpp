// GPU tests of chapter 03 against the solution (suite "solution") and the exercise (suite
// "exercise"): for every tile width, Width = tile, 2 tiles, 3 tiles and 1024, every element
// compared with the double-precision CPU product within the float error bound.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "samples_formulation.cuh"
#include "tiled_matmul.cuh"

namespace tiled_matmul {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int, int>;  // implementation, tile width, Width

std::vector<Case> cases(Implementation impl) {
  std::vector<Case> all;
  for (int tile : kTileWidths) {
    for (int width : {tile, 2 * tile, 3 * tile}) all.emplace_back(impl, tile, width);
    // The large size; under compute-sanitizer (10-100x slower) a smaller one.
    all.emplace_back(impl, tile, course::under_sanitizer() ? 256 : 1024);
  }
  return all;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "tile" + std::to_string(std::get<1>(info.param)) + "_Width" +
         std::to_string(std::get<2>(info.param));
}

class TiledMatmul : public ::testing::TestWithParam<Case> {};

TEST_P(TiledMatmul, MatchesCpuWhenWidthIsAMultipleOfTheTile) {
  const auto [impl, tile, width] = GetParam();
  const bool sol = impl == Implementation::solution;
  const course::matmul::MatmulUnderTest under_test{
      "tiled matmul, TILE_WIDTH " + std::to_string(tile),
      sol ? "solutions/03-tiled-matmul/tiled_matmul.cu" : "exercises/03-tiled-matmul/tiled_matmul.cu",
      [sol, tile](const float* M, const float* N, float* P, course::matmul::Shape shape) {
        if (sol) {
          solution::matmul(M, N, P, shape.n, tile);
        } else {
          exercise::matmul(M, N, P, shape.n, tile);
        }
      }};
  EXPECT_TRUE(course::matmul::matches_cpu(under_test, course::matmul::Shape::square(width)));
}

// The yardstick of the benchmark must compute the same product.
TEST(SolutionSamplesFormulation, MatchesCpu) {
  const course::matmul::MatmulUnderTest samples{
      "cuda-samples formulation", "chapters/03-tiled-matmul/samples_formulation.cu",
      [](const float* M, const float* N, float* P, course::matmul::Shape shape) {
        samples::matmul(M, N, P, shape.n);
      }};
  for (int width : {32, 96, 256}) {
    EXPECT_TRUE(course::matmul::matches_cpu(samples, course::matmul::Shape::square(width)));
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, TiledMatmul,
                         ::testing::ValuesIn(cases(Implementation::solution)), case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, TiledMatmul,
                         ::testing::ValuesIn(cases(Implementation::exercise)), case_name);

}  // namespace
}  // namespace tiled_matmul
