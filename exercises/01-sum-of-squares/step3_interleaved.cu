// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.3
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 3: one block; thread t reads elements t, t + T, t + 2T, ... (T = blockDim.x).
// Changed from step 2: only the indexing. In every iteration the 32 threads of a warp now read
// 32 neighbouring ints, one 128-byte line: the loads are coalesced, so every byte fetched is
// used. Expect several times the throughput of step 2 with the same number of threads.
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

__global__ void interleaved_kernel(const int* input, std::size_t n, unsigned long long* partials,
                                   unsigned long long* block_cycles) {
  const long long start = clock64();
  // TODO: thread t adds the squares of elements t, t + blockDim.x, t + 2 * blockDim.x, ...
  //       (while below n) and stores its sum in partials[t].
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result step3_interleaved(const int* input, std::size_t n, int threads, Workspace& workspace) {
  check_input("step3_interleaved", input, n);
  check_threads("step3_interleaved", threads);
  workspace.prepare(/*partial_count=*/threads, /*block_count=*/1);
  interleaved_kernel<<<1, threads>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("interleaved_kernel");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::exercise
