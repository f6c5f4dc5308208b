// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.5
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 5: as step 4, then each block adds its threads' sums in shared memory, as a tree:
// half the threads add the other half's values, then a quarter, ..., until thread 0 holds the
// block's total. One partial sum per block instead of one per thread: the copy back and the
// host's addition shrink by a factor of blockDim.x.
// Why __syncthreads(): a level reads what OTHER warps wrote at the level before. Without the
// barrier a warp can read a slot before its writer has run: a race, wrong sums at random.
// Also new: each thread issues kLoadsInFlight independent loads before it uses any of them.
// A DRAM load takes hundreds of cycles (step 0); to keep the memory busy the whole GPU must
// have (bandwidth x latency) bytes in flight, several megabytes, more than one load per thread
// gives. This is what brings the kernel close to the vendor library's throughput.
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

constexpr int kLoadsInFlight = 8;

__global__ void block_reduction_kernel(const int* input, std::size_t n,
                                       unsigned long long* partials,
                                       unsigned long long* block_cycles) {
  extern __shared__ unsigned long long block_sums[];  // blockDim.x slots
  const long long start = clock64();
  // TODO: (1) as in step 4, each thread sums the squares of its grid-stride elements, but
  //           with kLoadsInFlight of its loads (i, i + G, ..., strided by the grid's G threads)
  //           issued before any of them is added; the remaining elements one at a time;
  //       (2) the block's sums are added up in block_sums as a tree: each level halves the
  //           number of sums still to add (blockDim.x / 2 adds first, then half as many, ...),
  //           and no thread may read a slot before the thread that owns it has written it;
  //       (3) thread 0 stores the block's total in partials[blockIdx.x].
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result step5_block_reduction(const int* input, std::size_t n, int blocks, int threads,
                             Workspace& workspace) {
  check_input("step5_block_reduction", input, n);
  check_blocks("step5_block_reduction", blocks);
  check_power_of_two_threads("step5_block_reduction", threads);
  workspace.prepare(/*partial_count=*/blocks, /*block_count=*/blocks);
  const std::size_t shared_bytes = threads * sizeof(unsigned long long);
  block_reduction_kernel<<<blocks, threads, shared_bytes>>>(input, n, workspace.partials(),
                                                            workspace.block_cycles());
  COURSE_CHECK_LAUNCH("block_reduction_kernel");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::exercise
