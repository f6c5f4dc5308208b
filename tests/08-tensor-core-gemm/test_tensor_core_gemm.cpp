// GPU tests of chapter 08 against the solution (suite "solution") and the exercise (suite
// "exercise"): every step at every m and every n from 1 to 70, at k from 8 to 72; on
// rectangular shapes (one row, one column, k = 8, k = 1000, n not a multiple of 8); and at
// 1000, 1023 and 1025. Every element against the exact product of the same FP16 values within
// the bound of tensor_core_gemm_testing.hpp, the matrices between NaN guard zones. A step this
// GPU cannot run SKIPs, saying what it needs (compute capability, shared memory). Step 3 also
// with every depth of its ring that this GPU can hold, step 6 also with 3 and 1 blocks; steps 2
// and 5 also with each block tile alone, the last first (a store past the warp's columns). Plus:
// no step's kernel spills.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/testing.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_testing.hpp"

namespace tensor_core_gemm {
namespace {

using testing::Shape;
enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int>;  // implementation, step number

testing::GemmUnderTest under_test(Implementation impl, int step) {
  const bool solution = impl == Implementation::solution;
  const Gemm run = solution ? solution_step(step) : exercise_step(step);
  return {kSteps[step - 1].name,
          std::string(solution ? "solutions" : "exercises") + "/08-tensor-core-gemm/" +
              kSteps[step - 1].file,
          [run](const __half* A, const __half* B, float* C, Shape s) {
            run(A, B, C, s.m, s.k, s.n);
          },
          ""};
}

// Stops at the first wrong shape: one message per test, not seventy.
void expect_all_match(const testing::GemmUnderTest& gemm, const std::vector<Shape>& shapes) {
  for (const Shape& shape : shapes) {
    const ::testing::AssertionResult verdict = testing::matches_cpu(gemm, shape);
    if (!verdict) {
      ADD_FAILURE() << verdict.message();
      return;
    }
  }
}

// A step this GPU cannot run skips as one that needs another GPU; one that only this build
// cannot run there skips as not passed, so that ./course test fails it and says what to rebuild.
#define SKIP_UNLESS_THIS_BUILD_RUNS_STEP(step) \
  COURSE_SKIP_UNLESS_STEP_RUNS(why_step_cannot_run(step), step_needs_a_rebuild(step))

class TensorCoreGemm : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    SKIP_UNLESS_THIS_BUILD_RUNS_STEP(std::get<1>(GetParam()));
  }
};

// m = w and n = 71 - w for w = 1..70 (every m and every n from 1 to 70 once), then squares,
// with k cycling through 8, 16, ..., 72 (below, at and above one slice of every step).
TEST_P(TensorCoreGemm, MatchesCpuForEveryMAndNFrom1To70) {
  if (course::under_sanitizer()) GTEST_SKIP() << "the rectangular shapes are the sanitizer's";
  const auto [impl, step] = GetParam();
  std::vector<Shape> shapes;
  for (int w = 1; w <= 70; ++w) shapes.push_back({w, 8 * (1 + w % 9), 71 - w});
  for (int w = 1; w <= 70; w += 3) shapes.push_back({w, 8 * (1 + (w + 4) % 9), w});
  expect_all_match(under_test(impl, step), shapes);
}

// Sets one of the tests' overrides of tensor_core_gemm.cuh (detail::) for a scope; 0 puts the
// GPU's own value back, also when the test fails.
template <void (*kOverride)(int)>
class ScopedOverride {
 public:
  explicit ScopedOverride(int value) { kOverride(value); }
  ~ScopedOverride() { kOverride(0); }
  ScopedOverride(const ScopedOverride&) = delete;
  ScopedOverride& operator=(const ScopedOverride&) = delete;
};
// Step 3 runs with a ring of 2 or 3 stages on GPUs with less shared memory per block than this
// one (step3_stages()): for step 3 these shapes run with every depth this GPU can hold.
using Step3RingDepth = ScopedOverride<detail::override_step3_stages>;
// Step 6's persistent blocks take tile after tile; with one per SM, these shapes have fewer
// tiles than blocks. For step 6 they also run with 1 and 3 blocks: each block then takes many
// tiles, and its ring goes on from tile to tile.
using Step6Blocks = ScopedOverride<detail::override_step6_blocks>;

TEST_P(TensorCoreGemm, MatchesCpuForRectangularShapes) {
  const auto [impl, step] = GetParam();
  const std::vector<Shape> shapes = {{1, 1000, 1},    {1000, 8, 1},    {1, 8, 1000},
                                     {33, 16, 65},    {129, 72, 31},   {70, 1000, 65},
                                     {256, 8, 264},   {200, 136, 300}, {130, 264, 257},
                                     {300, 520, 600}};
  if (step == 3) {
    for (int stages = step3_stages(); stages >= 2 && !HasFailure(); --stages) {
      SCOPED_TRACE("step 3 with a ring of kStages = " + std::to_string(stages) +
                   " (GPUs with less shared memory than this one run it so)");
      const Step3RingDepth depth(stages);
      expect_all_match(under_test(impl, step), shapes);
    }
    return;
  }
  expect_all_match(under_test(impl, step), shapes);
  if (step != 6) return;
  for (const int blocks : {3, 1}) {
    if (HasFailure()) return;
    SCOPED_TRACE("step 6 with " + std::to_string(blocks) +
                 " persistent block(s): each takes many tiles, one after the other");
    const Step6Blocks few(blocks);
    expect_all_match(under_test(impl, step), shapes);
  }
}

TEST_P(TensorCoreGemm, MatchesCpuForLargeSizesAroundAThousand) {
  if (course::under_sanitizer()) GTEST_SKIP() << "minutes under compute-sanitizer";
  const auto [impl, step] = GetParam();
  expect_all_match(under_test(impl, step),
                   {{1000, 1000, 1000}, {1023, 1024, 1023}, {1025, 1024, 1025}});
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return kSteps[std::get<1>(info.param) - 1].name;
}

INSTANTIATE_TEST_SUITE_P(Solution, TensorCoreGemm,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Range(1, kStepCount + 1)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, TensorCoreGemm,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Range(1, kStepCount + 1)),
                         case_name);

// ---- Stores past the warp's columns: the steps whose store loop is the learner's ------------
// All tiles at once, a block's stores into the tile to its right are overwritten by that
// tile's block whenever it stores later, as it usually does. Each tile alone, the last first,
// they come after it: a store loop one fragment too long fails whatever order the GPU picks.
class StoreLoop : public TensorCoreGemm {};
using OneLaunchPerTile = ScopedOverride<detail::override_one_launch_per_tile>;

TEST_P(StoreLoop, StaysInsideItsTileWhenEachTileRunsAlone) {
  const auto [impl, step] = GetParam();
  testing::GemmUnderTest gemm = under_test(impl, step);
  gemm.when_written_but_wrong =
      "Each block tile ran alone here, the last (bottom right) first, so what a block stores "
      "past its own columns lands after the tile there is final, and stays (with all tiles at "
      "once, that tile's own block usually stores later and hides it). Wrong values in the "
      "first 8 columns of a tile, or of a warp's columns: written past the warp's columns, a "
      "store loop runs one fragment too far.";
  const OneLaunchPerTile alone(1);
  // Several columns of tiles in both steps (128 and 256 columns wide), rows cut short.
  expect_all_match(gemm, {{33, 72, 300}, {200, 136, 600}});
}

// Steps 2 and 5, whose launchers look at override_one_launch_per_tile: the stores of steps 1, 3
// and 4 are ready-made, and step 6's go through a staging tile, read back 32 columns at a time.
// Step 5's `j <= BN / 8` reads d[128], past the array: nvcc drops that iteration (the solution's
// PTX, byte for byte), so no known mistake plants it; this test catches other such stores.
INSTANTIATE_TEST_SUITE_P(Solution, StoreLoop,
                         ::testing::Combine(::testing::Values(Implementation::solution),
                                            ::testing::Values(2, 5)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, StoreLoop,
                         ::testing::Combine(::testing::Values(Implementation::exercise),
                                            ::testing::Values(2, 5)),
                         case_name);

// ---- Registers: no step may spill to local memory --------------------------------------------
class Resources : public ::testing::TestWithParam<int> {};

TEST_P(Resources, NoStepSpillsToLocalMemory) {
  const int step = GetParam();
  SKIP_UNLESS_THIS_BUILD_RUNS_STEP(step);
  const auto expect_no_spill = [step](const std::string& which) {
    const KernelResources used = solution_resources(step);
    EXPECT_EQ(used.local_bytes, 0u) << which << " uses " << used.registers << " registers and "
                                    << used.local_bytes
                                    << " bytes of local memory (spills or a stack frame)";
    EXPECT_GT(used.registers, 0);
  };
  if (step != 3) return expect_no_spill(kSteps[step - 1].name);
  for (int stages = step3_stages(); stages >= 2; --stages) {  // every ring this GPU can hold
    const Step3RingDepth depth(stages);
    expect_no_spill(std::string(kSteps[2].name) + " with kStages = " + std::to_string(stages));
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, Resources, ::testing::Range(1, kStepCount + 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(kSteps[info.param - 1].name);
                         });

}  // namespace
}  // namespace tensor_core_gemm
