// GPU tests of chapter 04 against the solution (suite "solution") and the exercise (suite
// "exercise"): every Width from 1 to 70 for tile widths 2, 8 and 16, three large odd-ish
// widths, and rectangular shapes; every element against the double-precision CPU product.
// Steps 1-3 are pieces of one kernel, and each is tested alone (case names step1_..., step2_...,
// step3_...): that step's piece as written in the file, the other two ready-made. The solution
// is also tested with all three pieces its own (all_...), the kernel the benchmark times.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "arbitrary_width_tiles.cuh"
#include "course/barrier_test.hpp"
#include "course/matmul_testing.hpp"
#include "course/testing.hpp"

namespace arbitrary_width_tiles {
namespace {

using course::matmul::Shape;
enum class Implementation { solution, exercise };

std::string file_of(Implementation impl, const char* file) {
  return std::string(impl == Implementation::solution ? "solutions" : "exercises") +
         "/04-arbitrary-width-tiles/" + file;
}

// What else a step's tests do, besides running your piece with the others ready-made.
std::string step_note(int step) {
  if (step == 1) return "; the M tile holds NaN until your load overwrites it";
  return step == 2 ? "; the N tile holds NaN until your load overwrites it" : "";
}

// The square kernel with step `only_step`'s piece from `impl` and the others ready-made, or
// (only_step 0) every piece from `impl`.
course::matmul::MatmulUnderTest square(Implementation impl, int tile, int only_step) {
  std::string name = "any-Width tiled matmul, TILE_WIDTH " + std::to_string(tile);
  std::string file = file_of(impl, "square_any_width.cu");
  if (only_step != 0) {
    name += ", step " + std::to_string(only_step) + " alone";
    file += std::string(", ") + kSteps[only_step - kFirstStep].function + " (step " +
            std::to_string(only_step) + "; the other steps' pieces are ready-made here" +
            step_note(only_step) + ")";
  }
  return {name, file,
          [impl, tile, only_step](const float* M, const float* N, float* P, Shape shape) {
            if (impl == Implementation::solution) {
              solution::matmul(M, N, P, shape.n, tile, only_step);
            } else {
              exercise::matmul(M, N, P, shape.n, tile, only_step);
            }
          }};
}

// The steps a case runs alone: the exercise each of its steps, the solution also all together.
std::vector<int> steps_of(Implementation impl) {
  std::vector<int> steps;
  if (impl == Implementation::solution) steps.push_back(0);
  for (int step = 1; step <= kSquareStepCount; ++step) steps.push_back(step);
  return steps;
}

std::string step_prefix(int only_step) {
  return only_step == 0 ? "all" : "step" + std::to_string(only_step);
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
// implementation, only_step (0: every piece its own), tile, Width
using SquareCase = std::tuple<Implementation, int, int, int>;

std::vector<SquareCase> square_cases(Implementation impl) {
  std::vector<SquareCase> all;
  const bool small = course::under_sanitizer();  // minutes there with every width
  for (int step : steps_of(impl)) {
    for (int tile : {2, 8, 16}) {
      for (int width = 1; width <= 70; ++width) {
        if (!small || width == 3 || width == 17 || width == 33) {
          all.emplace_back(impl, step, tile, width);
        }
      }
    }
    if (!small) {
      for (int tile : {16, 32}) {
        for (int width : {1000, 1023, 1025}) all.emplace_back(impl, step, tile, width);
      }
    }
  }
  return all;
}

std::string square_name(const ::testing::TestParamInfo<SquareCase>& info) {
  return step_prefix(std::get<1>(info.param)) + "_tile" + std::to_string(std::get<2>(info.param)) +
         "_Width" + std::to_string(std::get<3>(info.param));
}

class AnyWidthTiledMatmul : public ::testing::TestWithParam<SquareCase> {};

TEST_P(AnyWidthTiledMatmul, MatchesCpuForEveryWidth) {
  const auto [impl, step, tile, width] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(square(impl, tile, step), Shape::square(width)));
}

INSTANTIATE_TEST_SUITE_P(Solution, AnyWidthTiledMatmul,
                         ::testing::ValuesIn(square_cases(Implementation::solution)), square_name);
INSTANTIATE_TEST_SUITE_P(Exercise, AnyWidthTiledMatmul,
                         ::testing::ValuesIn(square_cases(Implementation::exercise)), square_name);

// ---- The README's example: Width 3 with 2 x 2 tiles, each step alone -------------------------
using ReadmeCase = std::tuple<Implementation, int>;  // implementation, only_step

std::vector<ReadmeCase> readme_cases(Implementation impl) {
  std::vector<ReadmeCase> all;
  for (int step : steps_of(impl)) all.emplace_back(impl, step);
  return all;
}

std::string readme_name(const ::testing::TestParamInfo<ReadmeCase>& info) {
  return step_prefix(std::get<1>(info.param)) + "_tile2_Width3";
}

class ReadmeExample : public ::testing::TestWithParam<ReadmeCase> {};

TEST_P(ReadmeExample, ThreeByThreeWithTwoByTwoTiles) {
  const auto [impl, step] = GetParam();
  EXPECT_TRUE(course::matmul::matches_cpu(square(impl, 2, step), Shape::square(3)));
}

INSTANTIATE_TEST_SUITE_P(Solution, ReadmeExample,
                         ::testing::ValuesIn(readme_cases(Implementation::solution)), readme_name);
INSTANTIATE_TEST_SUITE_P(Exercise, ReadmeExample,
                         ::testing::ValuesIn(readme_cases(Implementation::exercise)), readme_name);

// ---- Rectangular, step 4 --------------------------------------------------------------------
using RectangularCase = std::tuple<Implementation, int, Shape>;

std::vector<RectangularCase> rectangular_cases(Implementation impl) {
  const Shape shapes[] = {{1, 1000, 1}, {33, 17, 65}, {1000, 1, 1000}, {1, 1, 1}, {2, 3, 4},
                          {7, 300, 5}, {64, 1, 64},  {17, 33, 1},     {1, 64, 300}, {129, 70, 31}};
  std::vector<RectangularCase> all;
  if (course::under_sanitizer()) {  // three shapes with tails in every dimension there
    return {{impl, 16, shapes[1]}, {impl, 16, shapes[5]}, {impl, 32, shapes[9]}};
  }
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
  return "step4_tile" + std::to_string(std::get<1>(info.param)) + "_" + std::to_string(s.m) +
         "x" + std::to_string(s.k) + "x" + std::to_string(s.n);
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

// ---- Every step: each __syncthreads() is reached by the whole block -----------------------
// A barrier inside a guard's `if` gives right numbers on today's GPUs: only the PTX shows it.
// Steps 1-3: the square kernel built for that step alone (ONLY_STEP, its last template
// argument); step 4: the rectangular kernel.
using BarrierCase = std::tuple<Implementation, int>;  // implementation, step
class Barriers : public ::testing::TestWithParam<BarrierCase> {};

TEST_P(Barriers, EveryBarrierIsReachedByTheWholeBlock) {
  const auto [impl, step] = GetParam();
  const bool square_step = step <= kSquareStepCount;
  std::vector<std::string> kernels = {
      impl == Implementation::solution ? "8solution" : "8exercise",
      square_step ? "any_width_kernel" : "rectangular_kernel"};
  if (square_step) kernels.push_back("ELi" + std::to_string(step) + "EE");
  COURSE_EXPECT_EVERY_BARRIER_REACHED(
      kernels, "step " + std::to_string(step),
      file_of(impl, square_step ? "square_any_width.cu" : "rectangular.cu"));
}

std::string barrier_case_name(const ::testing::TestParamInfo<BarrierCase>& info) {
  return "step" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Solution, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(kFirstStep, kFirstStep + kStepCount)),
                         barrier_case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(kFirstStep, kFirstStep + kStepCount)),
                         barrier_case_name);

}  // namespace
}  // namespace arbitrary_width_tiles
