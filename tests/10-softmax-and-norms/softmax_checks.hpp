// What the chapter-10 tests check: seeded inputs of each kind that breaks a row-wise kernel, and
// two checkers (softmax, and the norms) that run a step with a poisoned output between guard
// margins, compare every element with the CPU's double-precision result within a bound the
// README justifies, and say what went wrong: where ((row, col), expected, got), what was never
// written, and a diagnosis where the shape of the error tells one.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "softmax_and_norms.cuh"

namespace softmax_and_norms::testing {

struct StepUnderTest {
  std::string name;         // e.g. "step4_online_softmax"
  std::string source_file;  // the file to edit
};

// The softmax inputs, each seeded by its shape and kind (values are never all alike):
enum class Values {
  random,         // uniform in [-8, 8)
  large,          // uniform in [-1e4, 1e4): exp of the raw values overflows
  masked,         // random, a third of the entries -inf; row 0 entirely -inf, row 1 -inf for its
                  // first two thirds, row 2 -inf but for its last entry
  ascending,      // each row increasing from -20 to 20: the max comes last, and every new value
                  // raises it
};
std::vector<float> softmax_input(Values kind, long long rows, long long cols);
const char* name_of(Values kind);

// The relative error a softmax output may have (README, "The error bound"), and the absolute
// floor under which FP32 flushes to 0.
double softmax_relative_bound();
inline constexpr double kSoftmaxAbsoluteBound = 1e-37;

// Runs `softmax` on `input` (rows x cols) and compares with cpu_softmax.
::testing::AssertionResult softmax_matches_cpu(const StepUnderTest& step, SoftmaxFn softmax,
                                               const std::vector<float>& input, long long rows,
                                               long long cols, Values kind);

// The norms, on elements of type T (__half: FP16, __nv_bfloat16: BF16): `run(x, y, gamma, beta,
// rows, cols, epsilon)` calls LayerNorm (beta used) or RMSNorm (beta ignored).
template <typename T>
using NormRun =
    std::function<void(const T*, T*, const T*, const T*, long long, long long, float)>;
inline constexpr float kEpsilon = 1e-5f;
// Inputs as floats, each exactly a T: uniform in [-4, 4), or `mean` plus a few steps of `spacing`
// (T's spacing there) either way: a large mean and a tiny spread.
template <typename T>
std::vector<float> norm_input(long long rows, long long cols, double mean = 0.0,
                              double spacing = 0.0);
template <typename T>
::testing::AssertionResult norm_matches_cpu(const StepUnderTest& step, bool layer_norm,
                                            const NormRun<T>& run,
                                            const std::vector<float>& input, long long rows,
                                            long long cols);

}  // namespace softmax_and_norms::testing
