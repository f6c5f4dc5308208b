// MISTAKE (step 5): a warp-shuffle block reduction that counts the block's warps as
// blockDim.x / 32. A block of fewer than 32 threads is one partial warp, and that count is 0:
// warp 0 adds no warp totals and every block reports 0. Blocks of 64 threads and more are
// right, so only the tests with blocks of 1 to 16 threads see it.
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
  // Each warp adds its lanes' sums with shuffles (masks and widths right for a partial warp).
  const unsigned lanes = blockDim.x < 32 ? blockDim.x : 32;
  const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned offset = lanes / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));
  }
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane == 0) block_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = blockDim.x / 32;  // BUG: 0 for a block that is one partial warp
    sum = lane < warps ? block_sums[lane] : 0;
    for (unsigned offset = lanes / 2; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));
    }
    if (lane == 0) partials[blockIdx.x] = sum;
  }
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result drops_partial_warps(const int* input, std::size_t n, int blocks, int threads,
                           Workspace& workspace) {
  workspace.prepare(blocks, blocks);
  kernel<<<blocks, threads, threads * sizeof(unsigned long long)>>>(
      input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("drops_partial_warps");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
