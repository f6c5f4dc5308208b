// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.4
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 4: many blocks, one grid-stride loop: global thread g reads g, g + G, g + 2G, ...
// (G = gridDim.x * blockDim.x, all threads of the grid).
// Changed from step 3: one block runs on ONE multiprocessor; many blocks use all of them, so
// many more loads are in flight. Still coalesced. The price: one partial sum per thread
// (blocks * threads numbers) to copy back and add on the host, which step 5 removes.
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

__global__ void grid_stride_kernel(const int* input, std::size_t n, unsigned long long* partials,
                                   unsigned long long* block_cycles) {
  const long long start = clock64();
  // TODO: compute this thread's global index g and the number of threads in the whole grid G,
  //       both right for every grid the launcher accepts. Add the squares of elements g,
  //       g + G, g + 2G, ... (while below n) and store the sum in partials[g].
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

}  // namespace sum_of_squares::exercise
