// MISTAKE (step 4): the loop stops one stride early, so each thread skips its last element.
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::mistakes {
namespace {

__global__ void kernel(const int* input, std::size_t n, unsigned long long* partials,
                       unsigned long long* block_cycles) {
  const long long start = clock64();
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t grid_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long sum = 0;
  for (std::size_t i = g; i + grid_threads < n; i += grid_threads) {  // BUG: should be i < n
    sum += square(input[i]);
  }
  partials[g] = sum;
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result skips_last_element(const int* input, std::size_t n, int blocks, int threads,
                          Workspace& workspace) {
  workspace.prepare(static_cast<std::size_t>(blocks) * threads, blocks);
  kernel<<<blocks, threads>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("skips_last_element");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
