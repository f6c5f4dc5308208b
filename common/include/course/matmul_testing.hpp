// The matmul chapters' checker (GoogleTest): runs a kernel on random matrices placed between
// poisoned guard zones, compares every element with the double-precision reference within its
// error bound, and explains a failure: where, what was expected, what came out, and why when it
// is clear (never written, NaN read from outside a matrix, transposed, wrote past the end).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "course/matmul.hpp"
#include "course/random.hpp"

namespace course::matmul {

// Computes P = M x N on the GPU for `shape` (device pointers, row-major).
using MatmulFn = std::function<void(const float* M, const float* N, float* P, Shape shape)>;

struct MatmulUnderTest {
  std::string name;         // e.g. "naive matmul, 16x16 blocks"
  std::string source_file;  // the file to edit
  MatmulFn run;
};

// Elements of guard zone on each side of every matrix: enough for a grid that overshoots by a
// whole 32-wide block row or column, so a missing bounds check is reported, not a crash.
std::size_t guard_elements(Shape shape);

::testing::AssertionResult matches_cpu(const MatmulUnderTest& matmul, Shape shape,
                                       std::uint64_t seed = kDefaultSeed);

}  // namespace course::matmul
