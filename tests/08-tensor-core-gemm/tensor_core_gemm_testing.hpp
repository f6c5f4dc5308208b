// Chapter 08's checker (GoogleTest): runs a step on random FP16 matrices placed between NaN
// guard zones, compares every element of C with the exact product of the same FP16 values
// (computed in double) within the bound below, and explains a failure: where, what was
// expected, what came out, and why when it is clear. A kernel whose barrier wait gave up (step
// 4's watchdog) ends the test program with that report, since its CUDA context is gone.
//
// The bound: the products of two FP16 numbers are exact in FP32 (11 + 11 significant bits), so
// all the error is in the k additions. NVIDIA specifies only that they are done in at least
// single precision, in an unspecified order and rounding (PTX ISA, mma); measured tensor cores
// truncate rather than round to nearest, so each addition may err by up to 2u instead of u:
//   |C - C_exact| <= gamma_(2 (k + 2)) * sum_k |A_ik| |B_kj|   (course/rounding.hpp)
// the "+ 2" as in chapter 07, for the double reference and the final store.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_fp16.h>

#include "course/random.hpp"

namespace tensor_core_gemm::testing {

struct Shape {
  int m = 0, k = 0, n = 0;
  std::string text() const;  // "33x16x65" (m x k x n)
};

using GemmFn = std::function<void(const __half* A, const __half* B, float* C, Shape shape)>;

struct GemmUnderTest {
  std::string name;         // e.g. "step2_mma_ldmatrix"
  std::string source_file;  // the file to edit
  GemmFn run;
  // A test's own diagnosis, said when every element of C was written and some are wrong: what
  // the way this test runs the step makes visible ("" for none).
  std::string when_written_but_wrong;
};

// The exit code of a test program whose kernel's barrier wait gave up.
inline constexpr int kBarrierTimeoutExit = 3;

// Seeded random FP16 matrix, rows x columns: +-(1 + f) 2^e with e from -6 to 2, never a
// subnormal (whose handling by the tensor cores is unspecified), signs mixed.
std::vector<__half> random_halves(int rows, int columns, std::uint64_t seed);

::testing::AssertionResult matches_cpu(const GemmUnderTest& gemm, Shape shape,
                                       std::uint64_t seed = course::kDefaultSeed);

// Runs `run` and waits for it; if the watchdog of steps 4-6 stopped the kernel, prints "the kernel did
// not finish within 4 s: a barrier that is never completed? (...)" and the file to edit to
// stderr and ends the program with kBarrierTimeoutExit. Other CUDA errors throw.
void run_and_wait(const GemmUnderTest& gemm, const std::function<void()>& run);

}  // namespace tensor_core_gemm::testing
