// ALTERNATIVE 03.1 tiled_matmul.cu
// The cuda-samples way: pointers to the top-left corners of phase ph's tiles (from blockIdx,
// not Row and Col), then the same offset ty * Width + tx into both; it reads the same elements.
// @region
  const float* m_corner = M + (blockIdx.y * TILE_WIDTH) * Width + ph * TILE_WIDTH;
  const float* n_corner = N + (ph * TILE_WIDTH) * Width + blockIdx.x * TILE_WIDTH;
  Mds[ty][tx] = m_corner[ty * Width + tx];
  Nds[ty][tx] = n_corner[ty * Width + tx];
