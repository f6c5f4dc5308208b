// ALTERNATIVE 02.2 naive_matmul.cu
// The block count rounded up by hand, (width + side - 1) / side (no overflow: width <= 46340),
// and the dim3s built with all three extents.
// @region
  const unsigned blocks = (width + block_side - 1) / block_side;
  config.block = dim3(block_side, block_side, 1);
  config.grid = dim3(blocks, blocks, 1);
