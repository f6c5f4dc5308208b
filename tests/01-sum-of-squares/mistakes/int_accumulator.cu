// MISTAKE (step 3): a 32-bit accumulator and a 32-bit product. Correct for the tutorial's
// inputs 0..9 at small n, wrong as soon as a square or a sum passes 2^31.
#include "course/errors.hpp"
#include "mistakes.hpp"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::mistakes {
namespace {

__global__ void kernel(const int* input, std::size_t n, unsigned long long* partials,
                       unsigned long long* block_cycles) {
  const long long start = clock64();
  int sum = 0;  // BUG: overflows
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) {
    // BUG: int * int overflows for |x| > 46340 (unsigned arithmetic shows the same wrap
    // without the undefined behaviour of signed overflow).
    sum = static_cast<int>(static_cast<unsigned>(sum) +
                           static_cast<unsigned>(input[i]) * static_cast<unsigned>(input[i]));
  }
  partials[threadIdx.x] = static_cast<unsigned long long>(static_cast<long long>(sum));
  course::record_block_cycles(start, block_cycles);
}

}  // namespace

Result int_accumulator(const int* input, std::size_t n, int threads, Workspace& workspace) {
  workspace.prepare(threads, 1);
  kernel<<<1, threads>>>(input, n, workspace.partials(), workspace.block_cycles());
  COURSE_CHECK_LAUNCH("int_accumulator");
  return workspace.finish_on_host();
}

}  // namespace sum_of_squares::mistakes
