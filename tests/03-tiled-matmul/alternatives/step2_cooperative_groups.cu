// ALTERNATIVE 03.2 tiled_matmul.cu
// The two barriers as cooperative groups' thread_block::sync() (the same bar.sync as
// __syncthreads()), and the products walked from the last k down to the first.
// @top
#include <cooperative_groups.h>
// @region
  const cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  block.sync();
  for (int k = TILE_WIDTH - 1; k >= 0; --k) Pvalue += Mds[ty][k] * Nds[k][tx];
  block.sync();
