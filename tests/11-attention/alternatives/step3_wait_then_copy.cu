// ALTERNATIVE 11.3 step3_pipelined.cu
// Another order for the same two stages: wait for everything in flight (this tile), pass a
// barrier, and only then send the next tile's copies, into the stage that every warp finished
// with before the previous iteration's closing barrier. The copies of tile t + 1 still run while
// tile t is computed. The swizzle written with a mask instead of a modulo.
// @region
  chunk ^= row & 7;
// @region
  copy_tile(0);
// @region
    wait_copies<0>();
    __syncthreads();
    copy_tile(tile + 1);
// @region
    __syncthreads();
