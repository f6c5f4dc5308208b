// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.3
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 3: the first kernel. A launch starts a grid of blocks, each of blockDim.x threads; every
// thread runs this function once, and the only thing that tells the threads apart is where
// they sit: blockIdx.x (which block) and threadIdx.x (which thread in it). Each thread computes
// one element, so its element number must come from those two and the block size. The grid
// covers n rounded up to whole blocks, so the last block can have threads past the end; and for
// n near INT_MAX it has more than 2^31 threads, whose numbers an int cannot hold.
#include "first_kernel.cuh"

namespace first_kernel::exercise {

namespace {

__global__ void saxpy_kernel_impl(int n, float a, const float* x, float* y) {
  // TODO: y[i] = a * x[i] + y[i] for this thread's own element i, one element per thread
  //       across the whole grid, no two threads with the same i; a thread whose i is not
  //       below n must touch no memory. A grid may have more than 2^31 threads: i must count
  //       past INT_MAX without wrapping.
}

}  // namespace

SaxpyKernel saxpy_kernel() { return saxpy_kernel_impl; }

}  // namespace first_kernel::exercise
