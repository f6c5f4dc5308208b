// Known-wrong versions of chapter 00's steps: the bugs a first kernel and its launcher usually
// have. The mistakes suite proves that the tests reject every one of them.
#pragma once

#include <vector>

#include "first_kernel.cuh"

namespace first_kernel::mistakes {

// Step 3 without the tail guard: the threads past n of the last block read and write past the
// end of x and y.
SaxpyKernel missing_tail_guard();

// Step 4 with n / threads blocks, rounded down: the last n % threads elements get no thread.
LaunchConfig grid_rounded_down(int n, int threads);

// Step 4 with nothing checked after the launch: a launch that fails (a block of 2048 threads)
// goes unnoticed, and y comes back unchanged as if it were the result.
std::vector<float> launch_not_checked(SaxpyKernel kernel, float a, const std::vector<float>& x,
                                      const std::vector<float>& y, int threads);

// Step 4 with the host vector's pointer given to the kernel instead of its GPU copy's.
std::vector<float> host_pointer_to_kernel(SaxpyKernel kernel, float a,
                                          const std::vector<float>& x,
                                          const std::vector<float>& y, int threads);

}  // namespace first_kernel::mistakes
