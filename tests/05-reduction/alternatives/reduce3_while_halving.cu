// ALTERNATIVE 05.3 reduce3_sequential_addressing.cu
// A while loop that halves the stride in its own condition: s = blockDim.x / 2, ..., 1. The
// barrier is outside the `if`, so every thread of the block reaches it at every level.
// @region
  unsigned s = blockDim.x;
  while ((s >>= 1) != 0) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();  // this level's sums are in place before the next level reads them
  }
