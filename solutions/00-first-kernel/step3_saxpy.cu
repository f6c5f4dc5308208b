// Step 3: the first kernel. A launch starts a grid of blocks, each of blockDim.x threads; every
// thread runs this function once, and the only thing that tells the threads apart is where
// they sit: blockIdx.x (which block) and threadIdx.x (which thread in it). Each thread computes
// one element, so its element number must come from those two and the block size. The grid
// covers n rounded up to whole blocks, so the last block can have threads past the end; and for
// n near INT_MAX it has more than 2^31 threads, whose numbers an int cannot hold.
#include "first_kernel.cuh"

namespace first_kernel::solution {

namespace {

__global__ void saxpy_kernel_impl(int n, float a, const float* x, float* y) {
  // BEGIN SOLUTION
  // TODO: y[i] = a * x[i] + y[i] for this thread's own element i, one element per thread
  //       across the whole grid, no two threads with the same i; a thread whose i is not
  //       below n must touch no memory. A grid may have more than 2^31 threads: i must count
  //       past INT_MAX without wrapping.
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // (In 64 bits: blockIdx.x * blockDim.x alone is 32-bit unsigned arithmetic, and an int holds
  // only up to 2^31 - 1, which the grid for an n near INT_MAX passes.)
  if (i < n) y[i] = a * x[i] + y[i];
  // END SOLUTION
}

}  // namespace

SaxpyKernel saxpy_kernel() { return saxpy_kernel_impl; }

}  // namespace first_kernel::solution
