// GPU tests of chapter 07 against the solution (suite "solution") and the exercise (suite
// "exercise"): every step at every Width from 1 to 70 (multiples of 4 take the 16-byte path,
// the others the scalar one), at 1000, 1023 and 1025, and on rectangular shapes; every element
// against the double-precision CPU product within the chapter-02 bound, the matrices between
// NaN guard zones. Plus: step 4 with every compiled tiling, and no step's kernel spills.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "register_tiled_sgemm.cuh"

namespace register_tiled_sgemm {
namespace {

using course::matmul::Shape;
enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int>;  // implementation, step number

course::matmul::MatmulUnderTest under_test(Implementation impl, int step) {
  const bool solution = impl == Implementation::solution;
  const Sgemm run = solution ? solution_step(step) : exercise_step(step);
  return {kSteps[step - 1].name,
          std::string(solution ? "solutions" : "exercises") + "/07-register-tiled-sgemm/" +
              kSteps[step - 1].file,
          [run](const float* M, const float* N, float* P, Shape s) {
            run(M, N, P, s.m, s.k, s.n);
          }};
}

// Stops at the first wrong shape: one message per test, not seventy.
void expect_all_match(const course::matmul::MatmulUnderTest& sgemm,
                      const std::vector<Shape>& shapes) {
  for (const Shape& shape : shapes) {
    const ::testing::AssertionResult verdict = course::matmul::matches_cpu(sgemm, shape);
    if (!verdict) {
      ADD_FAILURE() << verdict.message();
      return;
    }
  }
}

std::vector<Shape> every_width_up_to_70() {
  std::vector<Shape> shapes;
  for (int width = 1; width <= 70; ++width) shapes.push_back(Shape::square(width));
  return shapes;
}

// Thin, flat, empty-looking and odd shapes; the multiples of 4 among them take the 16-byte path.
const std::vector<Shape> kRectangularShapes = {
    {1, 1000, 1}, {33, 17, 65},  {1000, 1, 1000}, {1, 1, 1},    {2, 3, 4},
    {7, 300, 5},  {64, 1, 64},   {17, 33, 1},     {1, 64, 300}, {129, 70, 31},
    {132, 68, 260}, {256, 4, 8}, {4, 256, 132},   {200, 24, 136}};

class RegisterTiledSgemm : public ::testing::TestWithParam<Case> {};

TEST_P(RegisterTiledSgemm, MatchesCpuForEveryWidthFrom1To70) {
  if (course::under_sanitizer()) GTEST_SKIP() << "the rectangular shapes are the sanitizer's";
  const auto [impl, step] = GetParam();
  expect_all_match(under_test(impl, step), every_width_up_to_70());
}

TEST_P(RegisterTiledSgemm, MatchesCpuForRectangularShapes) {
  const auto [impl, step] = GetParam();
  expect_all_match(under_test(impl, step), kRectangularShapes);
}

TEST_P(RegisterTiledSgemm, MatchesCpuForLargeWidthsAroundAThousand) {
  if (course::under_sanitizer()) GTEST_SKIP() << "minutes under compute-sanitizer";
  const auto [impl, step] = GetParam();
  expect_all_match(under_test(impl, step),
                   {Shape::square(1000), Shape::square(1023), Shape::square(1025)});
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return kSteps[std::get<1>(info.param) - 1].name;
}

INSTANTIATE_TEST_SUITE_P(Solution, RegisterTiledSgemm,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(1, kStepCount + 1)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, RegisterTiledSgemm,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(1, kStepCount + 1)),
                         case_name);

// ---- Step 4 with each compiled tiling (the default picks one by shape) ----------------------
using TilingCase = std::tuple<Implementation, int>;  // implementation, index in kWarpTilings

class WarpTilings : public ::testing::TestWithParam<TilingCase> {};

TEST_P(WarpTilings, MatchesCpuWithEveryTiling) {
  const auto [impl, index] = GetParam();
  const WarpTiling tiling = kWarpTilings[index];
  const bool solution = impl == Implementation::solution;
  const course::matmul::MatmulUnderTest sgemm{
      "step4_warptiling with " + tiling.text(),
      std::string(solution ? "solutions" : "exercises") + "/07-register-tiled-sgemm/step4_warptiling.cu",
      [solution, tiling](const float* M, const float* N, float* P, Shape s) {
        if (solution) {
          solution::step4_warptiling(M, N, P, s.m, s.k, s.n, tiling);
        } else {
          exercise::step4_warptiling(M, N, P, s.m, s.k, s.n, tiling);
        }
      }};
  std::vector<Shape> shapes = kRectangularShapes;
  if (!course::under_sanitizer()) {
    for (int width : {1, 31, 64, 67, 128, 129, 260}) shapes.push_back(Shape::square(width));
  }
  expect_all_match(sgemm, shapes);
}

std::string tiling_name(const ::testing::TestParamInfo<TilingCase>& info) {
  const WarpTiling t = kWarpTilings[std::get<1>(info.param)];
  return "step4_block" + std::to_string(t.block_m) + "x" + std::to_string(t.block_n) + "_warp" +
         std::to_string(t.warp_m) + "x" + std::to_string(t.warp_n) + "_threads" +
         std::to_string(t.threads);
}

INSTANTIATE_TEST_SUITE_P(Solution, WarpTilings,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(0, 3)),
                         tiling_name);
INSTANTIATE_TEST_SUITE_P(Exercise, WarpTilings,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(0, 3)),
                         tiling_name);

// ---- Step 5 with each tiling it compiles, whole and split along k -------------------------
using SplitCase = std::tuple<Implementation, int, int>;  // implementation, tiling, k splits

class DoubleBufferedSplits : public ::testing::TestWithParam<SplitCase> {};

TEST_P(DoubleBufferedSplits, MatchesCpuWithEveryTilingAndSplit) {
  const auto [impl, index, splits] = GetParam();
  const WarpTiling tiling = kDoubleBufferedTilings[index];
  const bool solution = impl == Implementation::solution;
  const course::matmul::MatmulUnderTest sgemm{
      "step5_double_buffering with " + tiling.text() + ", k in " + std::to_string(splits) +
          " splits",
      std::string(solution ? "solutions" : "exercises") +
          "/07-register-tiled-sgemm/step5_double_buffering.cu",
      [solution, tiling, splits](const float* M, const float* N, float* P, Shape s) {
        if (solution) {
          solution::step5_double_buffering(M, N, P, s.m, s.k, s.n, tiling, splits);
        } else {
          exercise::step5_double_buffering(M, N, P, s.m, s.k, s.n, tiling, splits);
        }
      }};
  std::vector<Shape> shapes = kRectangularShapes;
  if (!course::under_sanitizer()) {
    for (int width : {1, 17, 64, 67, 128, 129, 260}) shapes.push_back(Shape::square(width));
  }
  expect_all_match(sgemm, shapes);
}

std::string split_name(const ::testing::TestParamInfo<SplitCase>& info) {
  constexpr const char* kNames[] = {"large", "wide", "narrow"};  // kDoubleBufferedTilings
  return "step5_" + std::string(kNames[std::get<1>(info.param)]) + "_tiles_" +
         std::to_string(std::get<2>(info.param)) + "_splits";
}

INSTANTIATE_TEST_SUITE_P(Solution, DoubleBufferedSplits,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Values(0, 1, 2), ::testing::Values(1, 3)),
                         split_name);
INSTANTIATE_TEST_SUITE_P(Exercise, DoubleBufferedSplits,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Values(0, 1, 2), ::testing::Values(1, 3)),
                         split_name);

// ---- Registers: no step may spill to local memory --------------------------------------------
class Resources : public ::testing::TestWithParam<int> {};

TEST_P(Resources, NoStepSpillsToLocalMemory) {
  const int step = GetParam();
  const KernelResources used = step == 4 ? solution::step4_resources(kLargeTiles)
                                         : solution_resources(step);
  EXPECT_EQ(used.local_bytes, 0u) << kSteps[step - 1].name << " uses " << used.registers
                                  << " registers and " << used.local_bytes
                                  << " bytes of local memory (spills or a stack frame)";
  EXPECT_GT(used.registers, 0);
  // Every other compiled variant too: a spill in one that the benchmark shape never picks is
  // still a spill on the shapes that do.
  for (const bool vector : {true, false}) {
    const char* loads = vector ? ", 16-byte loads" : ", 4-byte loads";
    if (step == 3) {
      EXPECT_EQ(solution::step3_resources(vector).local_bytes, 0u) << loads;
    }
    if (step != 4) continue;
    for (const WarpTiling& tiling : kWarpTilings) {
      EXPECT_EQ(solution::step4_resources(tiling, vector).local_bytes, 0u) << tiling.text()
                                                                           << loads;
    }
  }
  if (step == 5) {
    for (const WarpTiling& tiling : kDoubleBufferedTilings) {
      for (const bool split_k : {false, true}) {
        for (const bool vector_store : {true, false}) {
          EXPECT_EQ(solution::step5_resources(tiling, split_k, vector_store).local_bytes, 0u)
              << tiling.text() << (split_k ? ", split k" : ", whole k")
              << (vector_store ? ", 16-byte stores" : ", 4-byte stores");
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, Resources, ::testing::Range(1, kStepCount + 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(kSteps[info.param - 1].name);
                         });

}  // namespace
}  // namespace register_tiled_sgemm
