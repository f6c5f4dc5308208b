// GPU tests of chapter 11 against the solution (suite "solution") and the exercise (suite
// "exercise"): every step on lengths around every tile size (1 to 300 tokens, and 1000), head
// dimensions 64 and 128, causal or not, several batches and heads; on large logits (scores in
// the hundreds: exp without the max subtraction overflows); and on a second call with another
// shape on the same workspace. Under compute-sanitizer only a few small shapes run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attention_checks.hpp"
#include "course/testing.hpp"

namespace attention::testing {
namespace {

enum class Implementation { solution, exercise };

template <int kIndex>
class Attention : public ::testing::TestWithParam<Implementation> {
 protected:
  // A step this GPU cannot run (steps 2 and 3 below compute capability 8.0) skips as one that
  // needs another GPU; one that only this build cannot run there skips as not passed.
  void SetUp() override {
    COURSE_SKIP_UNLESS_STEP_RUNS(why_step_cannot_run(function().number),
                                 step_needs_a_rebuild(function().number));
  }
  static const StepFunction& function() { return kStepFunctions[kIndex]; }
  StepUnderTest under_test() const {
    const bool solution = GetParam() == Implementation::solution;
    return {function().name, std::string(solution ? "solutions" : "exercises") +
                                 "/11-attention/" + kSteps[function().number - kFirstStep].file};
  }
  AttentionFn implementation() const {
    return GetParam() == Implementation::solution ? solution_step(kIndex) : exercise_step(kIndex);
  }
  // Every shape, each with fresh inputs; stops at the first failure.
  void expect_matches(const std::vector<Shape>& shapes, double q_scale = 1.0) const {
    Workspace workspace;
    for (const Shape& shape : shapes) {
      const auto verdict = matches_cpu(under_test(), implementation(), shape,
                                       make_inputs(shape, q_scale), workspace);
      if (!verdict) {
        ADD_FAILURE() << verdict.message();
        return;
      }
    }
  }
  // Lengths around every tile size (16-row warp tiles, 64-key tiles, 64- and 128-row blocks).
  static std::vector<Shape> awkward_lengths(bool causal) {
    std::vector<int> lengths = {1, 2, 15, 16, 17, 63, 64, 65, 127, 128, 129, 300};
    if (course::under_sanitizer()) lengths = {1, 17, 65};
    std::vector<Shape> shapes;
    for (int d : {64, 128}) {
      for (int tokens : lengths) shapes.push_back({2, 3, tokens, d, causal});
      if (course::under_sanitizer()) break;
    }
    return shapes;
  }
};

#define ATTENTION_TESTS(Suite, index, step)                                               \
  using Suite = Attention<index>;                                                         \
  TEST_P(Suite, MatchesCpuOnLengthsAroundEveryTile) { expect_matches(awkward_lengths(false)); } \
  TEST_P(Suite, MatchesCpuWhenCausal) { expect_matches(awkward_lengths(true)); }          \
  TEST_P(Suite, MatchesCpuOnLargeLogits) {                                                \
    /* |q| up to 400: scaled scores in the hundreds, past exp's FP32 range (88.7) */      \
    if (course::under_sanitizer()) return expect_matches({{1, 2, 65, 64, false}}, 400.0); \
    expect_matches({{2, 2, 129, 64, false}, {1, 2, 200, 128, true}}, 400.0);              \
  }                                                                                       \
  TEST_P(Suite, MatchesCpuOnALongerSequenceAndManyHeads) {                                \
    if (course::under_sanitizer()) return;                                                \
    expect_matches({{1, 2, 1000, 128, false}, {1, 2, 1000, 64, true}, {3, 16, 70, 64, false}}); \
  }                                                                                       \
  COURSE_STEP_TESTS(Suite, Implementation, step)

ATTENTION_TESTS(Unfused, 0, 1);
ATTENTION_TESTS(FlashMma, 1, 2);
ATTENTION_TESTS(Pipelined, 2, 3);
ATTENTION_TESTS(Wgmma, 3, 4);
ATTENTION_TESTS(PingPong, 4, 5);

static_assert(kStepFunctionCount == 5, "one ATTENTION_TESTS line per step");

}  // namespace
}  // namespace attention::testing
