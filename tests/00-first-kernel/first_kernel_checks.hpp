// Chapter 00's checks, one step at a time, so that each step's tests need only that step done:
// the kernels (steps 3 and 6) are launched with grids the checks compute themselves, the
// launcher (step 4) is given the solution's kernel, the timing (step 5) the solution's kernel and
// configuration. Each returns an AssertionResult whose message says what a learner must fix.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "first_kernel.cuh"

namespace first_kernel::testing {

enum class Implementation { solution, exercise };
void PrintTo(Implementation implementation, std::ostream* out);

// The file a learner edits for `step` ("exercises/00-first-kernel/step3_saxpy.cu"), or the
// solution's.
std::string source_file(Implementation implementation, const std::string& step_file);

// Every step of one implementation, as function pointers.
struct Steps {
  DeviceSummary (*query_device)();
  void (*round_trip)(const float*, float*, std::size_t);
  SaxpyKernel (*saxpy_kernel)();
  LaunchConfig (*launch_config)(int, int);
  std::vector<float> (*saxpy)(SaxpyKernel, float, const std::vector<float>&,
                              const std::vector<float>&, int);
  float (*time_launch_ms)(SaxpyKernel, LaunchConfig, int, float, const float*, float*);
  SaxpyKernel (*saxpy_in_flight_kernel)();
};
Steps steps_of(Implementation implementation);

// n random floats in [-1, 1), the same for the same seed.
std::vector<float> random_floats(std::size_t n, unsigned seed);
// y = a * x + y computed on the CPU in double precision.
std::vector<double> cpu_saxpy(float a, const std::vector<float>& x, const std::vector<float>& y);
// Every element of `got` within float rounding of `expected` (what = "y after saxpy", ...).
::testing::AssertionResult matches(const std::vector<float>& got,
                                   const std::vector<double>& expected, const std::string& what);

// Steps 3 and 6: `kernel` launched with ceil(n / (threads x per_thread)) blocks of `threads`
// (per_thread: the elements each thread computes) on arrays that sit between guard margins: the
// right y, x untouched, nothing written outside the arrays.
::testing::AssertionResult kernel_matches_cpu(SaxpyKernel kernel, int n, int threads,
                                              const std::string& file, int per_thread = 1);

// Steps 3 and 6, the index past INT_MAX. The grid that covers n = INT_MAX with 1000 threads per
// block covers 2^31 + 352 elements, and an element number from 2^31 on no longer fits an int.
// These checks launch `kernel` with that grid on arrays whose region 2^31 floats (8 GiB) below
// each is mapped too (the driver's virtual memory management: it costs no 8 GiB), where an index
// that wrapped to a negative number lands, and say so. They leave `skipped` empty when they ran,
// else say why not (no virtual memory management, too little free memory).
//  - index_does_not_wrap: n = 1000, so every thread past element 999 must touch nothing.
//  - matches_cpu_at_int_max: n = INT_MAX for real, on GPUs with 16 GiB free: every element
//    right, nothing written outside y; run only after index_does_not_wrap passes, since a
//    grid-stride loop whose int index wraps can run for hours at that n.
::testing::AssertionResult index_does_not_wrap(SaxpyKernel kernel, int per_thread,
                                               const std::string& file, std::string* skipped);
::testing::AssertionResult matches_cpu_at_int_max(SaxpyKernel kernel, int per_thread,
                                                  const std::string& file, std::string* skipped);

// Step 4: the grid of `config_of(n, threads)` covers n with blocks of `threads`, no more
// blocks than needed, one-dimensional (no GPU needed).
::testing::AssertionResult config_covers(LaunchConfig (*config_of)(int, int), int n,
                                         int threads, const std::string& file);

// Step 4: `launcher` with a block of 2048 threads (more than any GPU allows) throws
// course::CudaError, rather than returning as if the kernel had run.
::testing::AssertionResult bad_launch_is_reported(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file);

// Step 4: `launcher` hands the kernel pointers to GPU memory (a probe kernel records them).
::testing::AssertionResult kernel_gets_gpu_pointers(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file);

}  // namespace first_kernel::testing
