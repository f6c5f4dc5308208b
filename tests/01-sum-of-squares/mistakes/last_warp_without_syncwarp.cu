// MISTAKE (step 5): the tree's last six levels in one warp, the pre-Volta way: no barrier,
// only `volatile`. Since Volta a warp's lanes are scheduled independently, so lane t can read
// block_sums[t + 16] before lane t + 16 has added into it: a race. On today's GPUs the numbers
// usually come out right; racecheck reports it.
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
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (threadIdx.x < stride) block_sums[threadIdx.x] += block_sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    volatile unsigned long long* last = block_sums;
    for (unsigned stride = blockDim.x >= 64 ? 32 : blockDim.x / 2; stride > 0; stride /= 2) {
      last[threadIdx.x] += last[threadIdx.x + stride];  // BUG: no __syncwarp()
    }
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result last_warp_without_syncwarp(const int* input, std::size_t n, int blocks, int threads,
                                  Workspace& workspace) {
  workspace.prepare(blocks, blocks);
  kernel<<<blocks, threads, threads * sizeof(unsigned long long)>>>(
      input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("last_warp_without_syncwarp");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
