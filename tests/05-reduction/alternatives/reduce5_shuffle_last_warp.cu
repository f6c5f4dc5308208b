// ALTERNATIVE 05.5 reduce5_unroll_last_warp.cu
// The last warp in registers: each lane adds its two remaining values, then __shfl_down_sync
// with the full mask (all 32 lanes call it) halves the rest; lane 0 writes the block's total.
// Blocks have at least 64 threads, so sdata[tid + 32] is always in the block.
// @region
  T sum = sdata[tid] + sdata[tid + 32];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if (tid == 0) sdata[0] = sum;
// @region
  for (unsigned active = blockDim.x >> 1; active > 32; active >>= 1) {
    if (tid < active) sdata[tid] += sdata[tid + active];
    __syncthreads();  // outside the `if`: the whole block waits at every level
  }
  if (tid < 32) warp_reduce(sdata, tid);  // one whole warp: the shuffles' full mask holds
