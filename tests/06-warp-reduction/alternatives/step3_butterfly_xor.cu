// ALTERNATIVE 06.3 step3_warp_shuffle.cu
// A butterfly: __shfl_xor_sync swaps with the lane whose index differs in one bit (1, 2, 4, 8,
// 16), so every lane ends with the total; every warp then reduces the warp totals, no branch.
// @region
#pragma unroll
  for (int bit = 1; bit < 32; bit <<= 1) {
    value += __shfl_xor_sync(kFullMask, value, bit);
  }
// @region
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();  // every warp total is stored before any warp reads them
  // Every warp adds up the BLOCK / 32 totals (only thread 0's result is used): no warp-index
  // branch, all 32 lanes of each warp in the shuffles, and nothing is written after the barrier.
  value = warp_sum(lane < BLOCK / 32 ? warp_sums[lane] : T(0));
