// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.2
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 2: one block of many threads; thread t sums its own contiguous chunk
// [t * chunk, (t + 1) * chunk), and the host adds the `threads` partial sums.
// Changed from step 1: many loads in flight at once. But look at one loop iteration across a
// warp: neighbouring threads read words `chunk` ints apart, so each of the 32 loads touches its
// own 32-byte sector. The accesses are uncoalesced; most of every sector fetched is wasted.
#include "course/errors.hpp"
#include "course/math.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

__global__ void contiguous_chunks_kernel(const int* input, std::size_t n,
                                         unsigned long long* partials,
                                         unsigned long long* block_cycles) {
  const long long start = clock64();
  // TODO: thread t sums the squares of its own contiguous chunk of the input. The chunks all
  //       have the same length and together cover all n elements; nothing at or past n is read.
  //       Thread t stores its sum in partials[t].
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result step2_contiguous_chunks(const int* input, std::size_t n, int threads,
                               Workspace& workspace) {
  check_input("step2_contiguous_chunks", input, n);
  check_threads("step2_contiguous_chunks", threads);
  workspace.prepare(/*partial_count=*/threads, /*block_count=*/1);
  contiguous_chunks_kernel<<<1, threads>>>(input, n, workspace.partials(),
                                           workspace.block_cycles());
  COURSE_CHECK_LAUNCH("contiguous_chunks_kernel");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::exercise
