// ALTERNATIVE 08.2 step2_mma_ldmatrix.cu
// B through ldmatrix.x2.trans written as inline PTX in the loop (libcu++'s cuda::ptx has no
// ldmatrix wrapper), one per 16 x 8 B fragment instead of one x4.trans per two: lanes 0-7 give
// k rows kk..kk+7 (matrix 0 -> b[j][0] = B(2t..2t+1, g)), lanes 8-15 rows kk+8..kk+15 (matrix 1
// -> b[j][1] = B(2t+8..2t+9, g)), all at column warp_col + 8 j; lanes 16-31 repeat lanes 0-15,
// valid addresses that x2 ignores. A's lane pointer (row l % 16, column kk + 8 (l / 16): the
// matrices in the order a[0..3]) is computed once, then moved 16 rows per fragment. C stored
// element by element with the bounds checked here: acc[i][j][e] is C(g + 8 (e / 2), 2t + e % 2)
// of the 16 x 8 tile, as mma.sync's C layout says.
// @region
      const __half* a_lane = a_tile + (warp_row + (lane & 15)) * A_LD + kk + ((lane >> 4) << 3);
#pragma unroll
      for (int i = 0; i < TILES_M; ++i) ldmatrix_x4(a[i], a_lane + i * MMA_M * A_LD);
      const __half* b_lane = b_tile + (kk + (lane & 15)) * B_LD + warp_col;
#pragma unroll
      for (int j = 0; j < TILES_N; ++j) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1])
                     : "r"(shared_address(b_lane + j * MMA_N)));
      }
// @region
  const int g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (int j = 0; j < TILES_N; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = block_row + warp_row + i * MMA_M + g + (e >> 1) * 8;
        const int col = block_col + warp_col + j * MMA_N + 2 * t + (e & 1);
        if (row < m && col < n) C[static_cast<long long>(row) * n + col] = acc[i][j][e];
      }
    }
  }
