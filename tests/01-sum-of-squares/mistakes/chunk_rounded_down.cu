// MISTAKE (step 2): the chunk size is rounded down, so the tail of the input is never read.
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::mistakes {
namespace {

__global__ void kernel(const int* input, std::size_t n, unsigned long long* partials,
                       unsigned long long* block_cycles) {
  const long long start = clock64();
  const std::size_t chunk = n / blockDim.x;  // BUG: should round up
  unsigned long long sum = 0;
  for (std::size_t i = threadIdx.x * chunk; i < (threadIdx.x + 1) * chunk; ++i) {
    sum += square(input[i]);
  }
  partials[threadIdx.x] = sum;
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result chunk_rounded_down(const int* input, std::size_t n, int threads, Workspace& workspace) {
  workspace.prepare(threads, 1);
  kernel<<<1, threads>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("chunk_rounded_down");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
