// Step 4: many blocks, one grid-stride loop: global thread g reads g, g + G, g + 2G, ...
// (G = gridDim.x * blockDim.x, all threads of the grid).
// Changed from step 3: one block runs on ONE multiprocessor; many blocks use all of them, so
// many more loads are in flight. Still coalesced. The price: one partial sum per thread
// (blocks * threads numbers) to copy back and add on the host, which step 5 removes.
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::solution {

namespace {

__global__ void grid_stride_kernel(const int* input, std::size_t n, unsigned long long* partials,
                                   unsigned long long* block_cycles) {
  const long long start = clock64();
  // BEGIN SOLUTION
  // TODO: compute this thread's global index g and the number of threads in the whole grid G,
  //       both right for every grid the launcher accepts. Add the squares of elements g,
  //       g + G, g + 2G, ... (while below n) and store the sum in partials[g].
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t grid_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long sum = 0;
  for (std::size_t i = g; i < n; i += grid_threads) sum += square(input[i]);
  partials[g] = sum;
  // END SOLUTION
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result step4_grid_stride(const int* input, std::size_t n, int blocks, int threads,
                         Workspace& workspace) {
  check_input("step4_grid_stride", input, n);
  check_blocks("step4_grid_stride", blocks);
  check_threads("step4_grid_stride", threads);
  workspace.prepare(/*partial_count=*/static_cast<std::size_t>(blocks) * threads,
                    /*block_count=*/blocks);
  grid_stride_kernel<<<blocks, threads>>>(input, n, workspace.partials(),
                                          workspace.block_cycles());
  COURSE_CHECK_LAUNCH("grid_stride_kernel");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::solution
