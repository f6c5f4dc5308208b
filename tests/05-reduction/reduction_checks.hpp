// What the chapter-05 tests check: the CPU reference in long double, the error bound a float or
// double reduction must meet, and one checker that says what went wrong.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reduction.cuh"

namespace reduction::testing {

// Test inputs: ints in [-16, 16] (so that even 2^26 of them cannot overflow an int, and the
// int sum is exact), floats and doubles in [-1, 1) with mixed signs.
template <typename T>
const std::vector<T>& test_input(std::size_t n, std::uint64_t seed = 0x5EED2026);

// Every size the issue asks for; the two largest are left out under compute-sanitizer.
const std::vector<std::size_t>& test_sizes();

// The exact sum and the allowed rounding error are reduction::cpu_sum and
// reduction::rounding_error_bound (reduction.cuh): the benchmark validates with the same
// summation depth and course::summation_error_bound.

struct PassUnderTest {
  std::string name;         // e.g. "reduce3_sequential_addressing"
  std::string source_file;  // the file to edit
  int elements_per_thread;
};

// Runs the whole reduction with `pass` and compares with the CPU; the message names the file,
// n, the block size and the type, the expected and actual sums, and a diagnosis when clear.
template <typename T>
::testing::AssertionResult matches_cpu(const PassUnderTest& under_test, PassFn<T> pass,
                                       std::size_t n, int block_size,
                                       std::uint64_t seed = 0x5EED2026);

}  // namespace reduction::testing
