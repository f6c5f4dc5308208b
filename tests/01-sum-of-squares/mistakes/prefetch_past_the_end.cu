// MISTAKE (step 3): software pipelining without a bounds check. Each thread loads its NEXT
// element before it squares the current one, and does so in the last round too: that load
// reads past the end of the input. Its value is never used, so the sum is right; the read is
// out of bounds all the same. memcheck reports it (the test's margins would make it legal).
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::mistakes {
namespace {

__global__ void kernel(const int* input, std::size_t n, unsigned long long* partials,
                       unsigned long long* block_cycles) {
  const long long start = clock64();
  unsigned long long sum = 0;
  int current = threadIdx.x < n ? input[threadIdx.x] : 0;
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) {
    const int next = input[i + blockDim.x];  // BUG: also when i + blockDim.x >= n
    sum += square(current);
    current = next;
  }
  partials[threadIdx.x] = sum;
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result prefetch_past_the_end(const int* input, std::size_t n, int threads, Workspace& workspace) {
  workspace.prepare(threads, 1);
  kernel<<<1, threads>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("prefetch_past_the_end");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
