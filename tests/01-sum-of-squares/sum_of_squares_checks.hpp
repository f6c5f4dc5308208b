// What the chapter-01 tests check, shared by the exercise, solution and known-mistake
// tests: the CPU reference, the steps under test with their launch configurations, and one
// checker that says where and why a result is wrong.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sum_of_squares.cuh"

namespace sum_of_squares::testing {

// The CPU references (cpu_sum_of_squares, cpu_pointer_chase, random_cycle) are in
// sum_of_squares.cuh: the benchmark validates with them too.

// The partial sums a step writes when it distributes the work as its lesson says; only used to
// explain a wrong sum (which partial sums differ), never to fail a test on its own.
using PartialsFn = std::function<std::vector<unsigned long long>(const std::vector<int>&)>;
std::vector<unsigned long long> contiguous_chunk_partials(const std::vector<int>& input, int threads);
std::vector<unsigned long long> interleaved_partials(const std::vector<int>& input, int threads);
std::vector<unsigned long long> grid_stride_partials(const std::vector<int>& input, int blocks,
                                                     int threads);
std::vector<unsigned long long> per_block_partials(const std::vector<int>& input, int blocks,
                                                   int threads);

// One step with its launch configuration bound, ready to run on a device input.
struct StepUnderTest {
  std::string name;         // e.g. "step3_interleaved<<<1, 256>>>"
  std::string source_file;  // the file to edit, e.g. "exercises/01-sum-of-squares/step3_...cu"
  std::function<Result(const int* input, std::size_t n, Workspace& workspace)> run;
  PartialsFn textbook_partials;
};

enum class Implementation { solution, exercise };
void PrintTo(Implementation implementation, std::ostream* out);  // for gtest's messages

// Steps 1-5 of one implementation, with the launch configurations the tests use.
std::vector<StepUnderTest> sum_steps(Implementation implementation);
// A step with another launch configuration (step 1 ignores blocks and threads).
StepUnderTest sum_step(Implementation implementation, int step, int blocks, int threads);

// Runs `step` on `input` (copied to the GPU, partial sums poisoned first) and compares the sum
// with the CPU. On a mismatch the message names the file to edit, the expected and actual sum,
// a diagnosis where one is clear, and the first wrong partial sums.
::testing::AssertionResult matches_cpu(const StepUnderTest& step, const std::vector<int>& input);

// The test inputs: random ints in [-2^20, 2^20] (squares up to 2^40, so any 32-bit arithmetic
// overflows), never zeros or constants.
std::vector<int> test_input(std::size_t n, std::uint64_t seed = 0x5EED2026);

// Sizes that break naive code: empty, tiny, around a warp, around a block, not a multiple of
// anything, and one large size.
const std::vector<std::size_t>& test_sizes();

}  // namespace sum_of_squares::testing
