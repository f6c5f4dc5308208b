// What the chapter-11 tests check: seeded FP16 inputs, and a checker that runs a step with O
// poisoned (NaN) beforehand, compares its rows with the CPU's double-precision attention within
// the bound of the README ("The error bound"), and says what went wrong: where ((batch, head,
// token, dim), expected, got), how many values were never written, and a diagnosis where the
// shape of the error tells one.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attention.cuh"

namespace attention::testing {

struct StepUnderTest {
  std::string name;         // e.g. "step2_flash_mma"
  std::string source_file;  // the file to edit
};

// Inputs: K and V uniform in [-1, 1); Q uniform in [-q_scale, q_scale). With q_scale = 1 the
// scaled scores stay within a few units; with q_scale = 400 they reach the hundreds, where
// exp of an unshifted score overflows FP32 (past 88.7).
struct Inputs {
  std::vector<float> q, k, v;  // each value exactly an FP16
};
Inputs make_inputs(const Shape& shape, double q_scale);

// Runs `step` on `inputs` (twice when `twice`, the second call on the same workspace) and
// compares every row (small shapes) or a sample of rows of every (batch, head) pair with
// cpu_attention_rows.
::testing::AssertionResult matches_cpu(const StepUnderTest& step, AttentionFn function,
                                       const Shape& shape, const Inputs& inputs,
                                       Workspace& workspace);

std::string describe(const Shape& shape);

}  // namespace attention::testing
