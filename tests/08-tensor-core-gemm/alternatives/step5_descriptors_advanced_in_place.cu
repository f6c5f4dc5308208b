// ALTERNATIVE 08.5 step5_wgmma.cu
// The wgmma descriptors are made once per slice and advanced along k by adding to their address
// field (in units of 16 bytes: 32 bytes of A's swizzled rows = 2, 16 rows of B's 128-byte rows
// = 128): the same 64-bit values as matrix_descriptor of the advanced pointers, the shared
// addresses being far below the field's 2^18 bytes. C is stored element by element, one row
// pointer per row.
// @region
  wgmma_fence();
  const std::uint64_t a_descriptor =
      matrix_descriptor(ring.a_stage(stage) + consumer * CONSUMER_M * BK, 16, 1024);
  const std::uint64_t b_descriptor =
      matrix_descriptor(ring.b_stage(stage), BK * B_BOX_COLUMNS * 2, 1024);
#pragma unroll
  for (int step = 0; step < BK / 16; ++step) {
    wgmma_m64n256k16(d, a_descriptor + step * (16 * 2 / 16),
                     b_descriptor + step * (16 * B_BOX_COLUMNS * 2 / 16));
  }
  wgmma_commit();
// @region
    wgmma_wait<0>();  // no group unfinished: the stage has been read
// @region
  const int lane = threadIdx.x & 31, warp_in_group = (threadIdx.x >> 5) & 3;
  const int top = block_row + consumer * CONSUMER_M + warp_in_group * 16 + (lane >> 2);
#pragma unroll
  for (int half = 0; half < 2; ++half) {  // rows top and top + 8: d[4 j + 2 half + 0..1]
    const int row = top + 8 * half;
    if (row < m) {
      float* c_row = C + static_cast<long long>(row) * n;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {
        const int col = block_col + 8 * j + 2 * (lane & 3);
        if (col < n) c_row[col] = d[4 * j + 2 * half];
        if (col + 1 < n) c_row[col + 1] = d[4 * j + 2 * half + 1];
      }
    }
  }
