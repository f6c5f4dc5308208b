// MISTAKE (step 5): no barrier between the levels of the tree. A warp reads
// block_sums[t + stride] before the warp that owns that slot has written it (or has finished
// adding into it): a race whose result depends on warp timing. racecheck reports it.
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::mistakes {
namespace {

__global__ void kernel(const int* input, std::size_t n, unsigned long long* partials,
                       unsigned long long* block_cycles) {
  extern __shared__ unsigned long long block_sums[];
  const long long start = clock64();
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t grid_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long sum = 0;
  for (std::size_t i = g; i < n; i += grid_threads) sum += square(input[i]);
  block_sums[threadIdx.x] = sum;
  // BUG: no __syncthreads() here ...
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) block_sums[threadIdx.x] += block_sums[threadIdx.x + stride];
    // BUG: ... nor here
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result missing_syncthreads(const int* input, std::size_t n, int blocks, int threads,
                           Workspace& workspace) {
  workspace.prepare(blocks, blocks);
  kernel<<<blocks, threads, threads * sizeof(unsigned long long)>>>(
      input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("missing_syncthreads");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
