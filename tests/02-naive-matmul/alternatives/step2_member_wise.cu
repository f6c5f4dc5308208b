// ALTERNATIVE 02.2 naive_matmul.cu
// Member by member: a quotient plus one block for a remainder, the same count in x and y (the
// default dim3 already has z = 1).
// @region
  config.block.x = block_side;
  config.block.y = block_side;
  config.grid.x = width / block_side + (width % block_side != 0 ? 1 : 0);
  config.grid.y = config.grid.x;
