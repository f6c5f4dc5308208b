// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.1
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 1: ask the GPU what it is. Everything later in the course is judged against these
// numbers: the SMs that run the blocks, the warp of threads that execute together, the most
// threads one block may have, and the peak DRAM bandwidth that a memory-bound kernel can at
// best reach.
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::exercise {

DeviceSummary query_device() {
  DeviceSummary summary;
  // TODO: fill every field of summary for the current GPU, each CUDA call checked with
  //       COURSE_CHECK: which GPU is current, then its attributes (multiprocessors, warp size,
  //       compute capability, threads per block, memory clock in kHz, bus width in bits).
  // TODO: the peak DRAM bandwidth in GB/s (1e9 bytes per second) from the memory clock and
  //       the bus width.
  return summary;
}

}  // namespace first_kernel::exercise
