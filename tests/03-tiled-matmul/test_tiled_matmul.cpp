// GPU tests of chapter 03 against the solution (suite "solution") and the exercise (suite
// "exercise"): for every tile width, Width = tile, 2 tiles, 3 tiles and 1024, every element
// compared with the double-precision CPU product within the float error bound.
// Every step is tested alone (case names step1_..., step2_...): that step's piece of the kernel
// as written in the file, the other step's piece ready-made. The solution is also tested with
// both pieces its own (all_...), the kernel the benchmark times.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/barrier_test.hpp"
#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "samples_formulation.cuh"
#include "tiled_matmul.cuh"

namespace tiled_matmul {
namespace {

enum class Implementation { solution, exercise };
// implementation, only_step (0: every piece its own), tile width, Width
using Case = std::tuple<Implementation, int, int, int>;

// What else a step's tests do, besides running your piece with the others ready-made.
std::string step_note(int step) {
  return step == 1 ? "; both tiles hold NaN until your loads overwrite them" : "";
}

std::vector<Case> cases(Implementation impl) {
  std::vector<Case> all;
  const int first_step = impl == Implementation::solution ? 0 : 1;
  for (int step = first_step; step <= kStepCount; ++step) {
    for (int tile : kTileWidths) {
      // And 256, the size the compute-sanitizer run (10-100x slower) takes instead of 1024.
      for (int width : {tile, 2 * tile, 3 * tile, 256}) all.emplace_back(impl, step, tile, width);
      if (!course::under_sanitizer()) all.emplace_back(impl, step, tile, 1024);
    }
  }
  return all;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const int step = std::get<1>(info.param);
  return (step == 0 ? std::string("all") : "step" + std::to_string(step)) + "_tile" +
         std::to_string(std::get<2>(info.param)) + "_Width" +
         std::to_string(std::get<3>(info.param));
}

class TiledMatmul : public ::testing::TestWithParam<Case> {};

TEST_P(TiledMatmul, MatchesCpuWhenWidthIsAMultipleOfTheTile) {
  const auto [impl, step, tile, width] = GetParam();
  const bool sol = impl == Implementation::solution;
  std::string file = sol ? "solutions/03-tiled-matmul/tiled_matmul.cu"
                         : "exercises/03-tiled-matmul/tiled_matmul.cu";
  std::string name = "tiled matmul, TILE_WIDTH " + std::to_string(tile);
  if (step != 0) {
    file += std::string(", ") + kSteps[step - kFirstStep].function + " (step " +
            std::to_string(step) + "; the other steps' pieces are ready-made here" +
            step_note(step) + ")";
    name += ", step " + std::to_string(step) + " alone";
  }
  const course::matmul::MatmulUnderTest under_test{
      name, file,
      [sol, tile = tile, step = step](const float* M, const float* N, float* P,
                                      course::matmul::Shape shape) {
        if (sol) {
          solution::matmul(M, N, P, shape.n, tile, step);
        } else {
          exercise::matmul(M, N, P, shape.n, tile, step);
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

// Every __syncthreads() of the kernel built for one step alone (ONLY_STEP, the last template
// argument) is reached by the whole block: a barrier inside an `if` that only some threads
// take gives right numbers on today's GPUs, so only the PTX shows it.
using BarrierCase = std::tuple<Implementation, int>;  // implementation, step
class Barriers : public ::testing::TestWithParam<BarrierCase> {};

TEST_P(Barriers, EveryBarrierIsReachedByTheWholeBlock) {
  const auto [impl, step] = GetParam();
  const bool sol = impl == Implementation::solution;
  const std::vector<std::string> kernels = {sol ? "8solution" : "8exercise",
                                            "tiled_matmul_kernel",
                                            "ELi" + std::to_string(step) + "EE"};
  COURSE_EXPECT_EVERY_BARRIER_REACHED(
      kernels, "step " + std::to_string(step),
      sol ? "solutions/03-tiled-matmul/tiled_matmul.cu" : "exercises/03-tiled-matmul/tiled_matmul.cu");
}

std::string barrier_case_name(const ::testing::TestParamInfo<BarrierCase>& info) {
  return "step" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Solution, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(1, kStepCount + 1)),
                         barrier_case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Barriers,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(1, kStepCount + 1)),
                         barrier_case_name);

}  // namespace
}  // namespace tiled_matmul
