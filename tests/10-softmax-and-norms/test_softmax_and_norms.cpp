// GPU tests of chapter 10 against the solution (suite "solution") and the exercise (suite
// "exercise"): every softmax step on random rows of awkward widths, on many rows, on inputs up to
// 1e4 in magnitude, on masked rows (-inf entries, a fully masked row, a masked prefix), on rows
// whose max comes last, and on the longest rows it takes; LayerNorm and RMSNorm, FP16 and BF16,
// on random rows and on rows with a large mean and a tiny spread. Under compute-sanitizer only
// small cases run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "course/testing.hpp"
#include "softmax_checks.hpp"

namespace softmax_and_norms::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int>;  // implementation, index in kSoftmaxSteps/kNormSteps
using Shapes = std::vector<std::pair<long long, long long>>;  // (rows, cols)

StepUnderTest under_test(Implementation impl, const StepFunction& function) {
  const bool solution = impl == Implementation::solution;
  return {function.name, std::string(solution ? "solutions" : "exercises") +
                             "/10-softmax-and-norms/" + file_of(function)};
}

// ---- Softmax (steps 1-4 and 6) ----------------------------------------------------------------

class Softmax : public ::testing::TestWithParam<Case> {
 protected:
  // A step this GPU cannot run (step 6 below compute capability 9.0) skips as one that needs
  // another GPU; one that only this build cannot run there skips as not passed, so that
  // ./course test fails it and says what to rebuild.
  void SetUp() override {
    COURSE_SKIP_UNLESS_STEP_RUNS(why_step_cannot_run(function().number),
                                 step_needs_a_rebuild(function().number));
  }
  const StepFunction& function() const { return kSoftmaxSteps[std::get<1>(GetParam())]; }
  // Every shape of `shapes` that the step takes, each with the input of `kind`; stops at the
  // first failure. A shape that the step's launcher refuses on this GPU (step 6: a row whose
  // cluster this GPU cannot hold, though it runs clusters) is left out, with a note; when every
  // shape is, the test skips as one that needs another GPU.
  void expect_matches(Values kind, const Shapes& shapes) const {
    const auto [impl, index] = GetParam();
    const SoftmaxFn softmax =
        impl == Implementation::solution ? solution_softmax(index) : exercise_softmax(index);
    int checked = 0;
    std::string refused;
    for (const auto& [rows, cols] : shapes) {
      if (cols > function().max_cols) continue;
      try {
        const auto verdict = softmax_matches_cpu(under_test(impl, function()), softmax,
                                                 softmax_input(kind, rows, cols), rows, cols,
                                                 kind);
        if (!verdict) {
          ADD_FAILURE() << verdict.message();
          return;
        }
        ++checked;
      } catch (const course::StepNeedsAnotherGpu& cannot) {
        refused = cannot.what();
        std::cout << "note: " << rows << " x " << cols << " left out: " << refused << "\n";
      }
    }
    if (checked == 0 && !refused.empty()) COURSE_SKIP_ON_THIS_GPU(refused);
  }
};

// Widths around every vector, warp and block size, primes, and the longest rows steps 2 and 3
// hold; row 0 of 1 x 31 ends in a partial vector with nothing after it (memcheck sees a read past).
TEST_P(Softmax, MatchesCpuOnRandomRowsOfAwkwardWidths) {
  if (course::under_sanitizer()) {
    expect_matches(Values::random, {{1, 31}, {2, 1}, {3, 33}, {2, 1025}, {2, 4099}});
    return;
  }
  Shapes shapes;
  for (const long long cols : {1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 127, 128, 129, 1021, 1023, 1024,
                               1025, 2047, 4093, 4096, 8191, 16411, 32765, 32768}) {
    shapes.emplace_back(cols == 31 ? 1 : 3, cols);
  }
  expect_matches(Values::random, shapes);
}

TEST_P(Softmax, MatchesCpuOnManyRows) {
  if (course::under_sanitizer()) {
    expect_matches(Values::random, {{300, 7}, {64, 100}});
    return;
  }
  expect_matches(Values::random, {{20000, 33}, {4099, 1000}, {1000, 4096}});
}

// exp(1e4) overflows: only a max subtracted first keeps every term finite.
TEST_P(Softmax, StaysFiniteOnInputsUpToTenThousand) {
  if (course::under_sanitizer()) {
    expect_matches(Values::large, {{2, 100}});
    return;
  }
  expect_matches(Values::large, {{4, 32}, {4, 1000}, {4, 4096}, {2, 32768}});
}

// Masked entries contribute nothing; a fully masked row gives 0 (never NaN); a row masked but for
// its last entry gives 1 there; a masked prefix must not turn the running sum into NaN.
TEST_P(Softmax, GivesZeroForAFullyMaskedRowAndSkipsMaskedEntries) {
  if (course::under_sanitizer()) {
    expect_matches(Values::masked, {{3, 5}, {4, 33}});
    return;
  }
  expect_matches(Values::masked, {{3, 1}, {3, 5}, {4, 33}, {4, 1025}, {4, 4096}, {3, 32768},
                                  {3, 100000}});
}

// Every new value raises the max: a running sum not rescaled, or partial sums added without
// bringing them to a common max, is wrong by far.
TEST_P(Softmax, RescalesWhenTheMaxComesLast) {
  if (course::under_sanitizer()) {
    expect_matches(Values::ascending, {{2, 100}, {1, 40000}});
    return;
  }
  expect_matches(Values::ascending,
                 {{3, 100}, {3, 4096}, {2, 32768}, {2, 100003}, {40, 131072}});
}

// Rows longer than one block's chunk (step 4: several blocks per row; step 6: a cluster of up to
// 16), up to 2^20 columns; a row length that is not a multiple of 4 starts most rows between two
// 16-byte boundaries. Step 6 takes rows longer than 64K columns whose length is a multiple of 4
// in clusters of 8 blocks that each do several rows, one after another, as many clusters as the
// GPU runs at once. At 262144 columns a block fills an SM, so that is at most an eighth of the
// SMs (15 of an H200's 132): 40 rows give each cluster at least two, 70 rows four or five, and
// its two inboxes are each used more than once.
TEST_P(Softmax, MatchesCpuOnLongRows) {
  if (course::under_sanitizer()) {
    expect_matches(Values::random, {{1, 40000}, {40, 262144}});
    return;
  }
  expect_matches(Values::random, {{3, 262147}, {1, 1 << 20}, {2, 65536}, {2, 262144},
                                  {2, 200001}, {70, 65540}, {70, 262144}});
}

std::vector<Case> cases(Implementation impl, int count) {
  std::vector<Case> all;
  for (int index = 0; index < count; ++index) all.emplace_back(impl, index);
  return all;
}

// A case is named after its function ("step4_online_softmax"): how ./course test finds a step's.
template <const StepFunction* kTable>
std::string name_in(const ::testing::TestParamInfo<Case>& info) {
  return kTable[std::get<1>(info.param)].name;
}

INSTANTIATE_TEST_SUITE_P(Solution, Softmax,
                         ::testing::ValuesIn(cases(Implementation::solution, kSoftmaxStepCount)),
                         name_in<kSoftmaxSteps>);
INSTANTIATE_TEST_SUITE_P(Exercise, Softmax,
                         ::testing::ValuesIn(cases(Implementation::exercise, kSoftmaxStepCount)),
                         name_in<kSoftmaxSteps>);

// ---- LayerNorm and RMSNorm (step 5) -------------------------------------------------------------

// The norms' element type: FP16 (__half) or BF16 (__nv_bfloat16), in and out.
enum class Element { fp16, bf16 };
using NormCase = std::tuple<Implementation, int, Element>;  // ..., index in kNormSteps, type

class Norm : public ::testing::TestWithParam<NormCase> {
 protected:
  // Every shape, with random values, or with values `mean` plus a few steps of the element
  // type's spacing there (a large mean, a tiny spread); stops at the first failure.
  void expect_matches(const Shapes& shapes, double mean = 0.0) const {
    if (std::get<2>(GetParam()) == Element::bf16) {
      expect_matches_in<__nv_bfloat16>(shapes, mean, 8);
    } else {
      expect_matches_in<__half>(shapes, mean, 11);
    }
  }

 private:
  // T has `significant_bits` (FP16 11, BF16 8): near `mean` its values are 2^(e - bits + 1)
  // apart, where 2^e <= mean < 2^(e + 1).
  template <typename T>
  void expect_matches_in(const Shapes& shapes, double mean, int significant_bits) const {
    const auto [impl, index, element] = GetParam();
    const bool solution = impl == Implementation::solution;
    const bool layer = index == 0;
    const double spacing = mean == 0.0 ? 0.0 : std::ldexp(1.0, std::ilogb(mean) -
                                                                   (significant_bits - 1));
    const LayerNormFn<T> layer_norm = layer_norm_of<T>(solution);
    const RmsNormFn<T> rms_norm = rms_norm_of<T>(solution);
    const NormRun<T> run = [=](const T* x, T* y, const T* gamma, const T* beta, long long rows,
                               long long cols, float epsilon) {
      if (layer) {
        layer_norm(x, y, gamma, beta, rows, cols, epsilon);
      } else {
        rms_norm(x, y, gamma, rows, cols, epsilon);
      }
    };
    StepUnderTest step = under_test(impl, kNormSteps[index]);
    if (element == Element::bf16) step.name += " (BF16)";
    for (const auto& [rows, cols] : shapes) {
      const auto verdict = norm_matches_cpu<T>(step, layer, run,
                                               norm_input<T>(rows, cols, mean, spacing), rows,
                                               cols);
      if (!verdict) {
        ADD_FAILURE() << verdict.message();
        return;
      }
    }
  }
};

TEST_P(Norm, MatchesCpuOnRandomRowsOfAwkwardWidths) {
  if (course::under_sanitizer()) {
    expect_matches({{1, 9}, {3, 1}, {2, 33}, {2, 1025}});
    return;
  }
  Shapes shapes;
  for (const long long cols : {1, 2, 3, 7, 8, 9, 31, 33, 127, 1023, 1024, 1025, 4096, 4099, 8192,
                               16411, 32768}) {
    shapes.emplace_back(cols == 9 ? 1 : 3, cols);
  }
  expect_matches(shapes);
}

TEST_P(Norm, MatchesCpuOnManyRows) {
  if (course::under_sanitizer()) {
    expect_matches({{200, 24}});
    return;
  }
  // Enough rows that every block of a grid as large as the GPU holds does several (RMSNorm's
  // ring of three rows in shared memory is refilled, at each of its shapes).
  expect_matches({{10000, 24}, {3001, 127}, {5000, 4096}, {3000, 8192}});
}

// Values 1e4 + 8k and 3e4 + 16k in FP16, 1e4 + 64k and 3e4 + 128k in BF16 (k in -3 ... 3:
// neighbouring values of the type there): the variance is about 1e-6 (FP16) or 1e-4 (BF16) of
// the mean's square, where E[x^2] - E[x]^2 in FP32 loses much or all of it.
TEST_P(Norm, StaysAccurateWhenTheMeanIsLargeAndTheSpreadTiny) {
  if (course::under_sanitizer()) {
    expect_matches({{2, 1024}}, 1e4);
    return;
  }
  expect_matches({{4, 1024}, {4, 4096}, {4, 8192}}, 1e4);
  expect_matches({{4, 4096}}, 3e4);
}

std::vector<NormCase> norm_cases(Implementation impl) {
  std::vector<NormCase> all;
  for (const Element element : {Element::fp16, Element::bf16}) {
    for (int index = 0; index < kNormStepCount; ++index) all.emplace_back(impl, index, element);
  }
  return all;
}

// "step5_layer_norm" (FP16), "step5_layer_norm_bfloat16": ./course test 10.5 runs both.
std::string norm_name(const ::testing::TestParamInfo<NormCase>& info) {
  const auto [impl, index, element] = info.param;
  return std::string(kNormSteps[index].name) + (element == Element::bf16 ? "_bfloat16" : "");
}

INSTANTIATE_TEST_SUITE_P(Solution, Norm, ::testing::ValuesIn(norm_cases(Implementation::solution)),
                         norm_name);
INSTANTIATE_TEST_SUITE_P(Exercise, Norm, ::testing::ValuesIn(norm_cases(Implementation::exercise)),
                         norm_name);

}  // namespace
}  // namespace softmax_and_norms::testing
