// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.1
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 1: one thread, <<<1, 1>>>, loops over all n elements.
// The loads of different iterations do not depend on each other, but one thread can keep only
// a few of them in flight: the GPU spends almost all its time waiting on memory (step 0).
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

__global__ void one_thread_kernel(const int* input, std::size_t n, unsigned long long* partials,
                                  unsigned long long* block_cycles) {
  const long long start = clock64();
  // TODO: add square(input[i]) for every i in [0, n) and store the exact total (modulo 2^64)
  //       in partials[0].
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result step1_one_thread(const int* input, std::size_t n, Workspace& workspace) {
  check_input("step1_one_thread", input, n);
  workspace.prepare(/*partial_count=*/1, /*block_count=*/1);
  one_thread_kernel<<<1, 1>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("one_thread_kernel");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::exercise
