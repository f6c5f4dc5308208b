// ALTERNATIVE 03.2 tiled_matmul.cu
// The phase's products gathered with fmaf into a sum of their own, added to Pvalue after the
// second barrier (which only has to follow the last read of the tiles); the order of the
// additions differs from the solution's by rounding only.
// @region
  __syncthreads();  // every element of both tiles is in shared memory before anyone reads them
  float phase_sum = 0.0f;
  for (int k = 0; k < TILE_WIDTH; ++k) phase_sum = fmaf(Mds[ty][k], Nds[k][tx], phase_sum);
  __syncthreads();  // every thread has read the tiles before the next phase overwrites them
  Pvalue += phase_sum;
