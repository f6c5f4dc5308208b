// ALTERNATIVE 08.1 step1_wmma.cu
// Warps numbered down the columns first (warp % 2 picks the 64-row half, warp / 2 the 32-column
// quarter: a bijection of warps 0-7 onto the 2 x 4 parts, each covered once), and per 16 of k
// the warp's FRAGS_N B fragments loaded once and kept, while its A fragments are streamed one
// at a time: each is loaded, multiplied into its row of accumulators and dropped. The same
// products go into the same accumulators (each acc[i][j] still gets a[i] x b[j] for every kk,
// in the same kk order), with one A fragment live instead of FRAGS_M.
// @region
  warp_row = (warp % (BM / WARP_M)) * WARP_M;  // 0 or 64
  warp_col = (warp / (BM / WARP_M)) * WARP_N;  // 0, 32, 64 or 96
// @region
#pragma unroll
    for (int kk = 0; kk < BK; kk += FRAG) {
      BFragment b[FRAGS_N];
#pragma unroll
      for (int j = 0; j < FRAGS_N; ++j) {
        wmma::load_matrix_sync(b[j], &b_tile[kk * B_LD + warp_col + j * FRAG], B_LD);
      }
      const __half* a_rows = &a_tile[warp_row * A_LD + kk];  // the warp's first A fragment
#pragma unroll
      for (int i = 0; i < FRAGS_M; ++i, a_rows += FRAG * A_LD) {
        AFragment a;
        wmma::load_matrix_sync(a, a_rows, A_LD);
#pragma unroll
        for (int j = 0; j < FRAGS_N; ++j) wmma::mma_sync(acc[i][j], a, b[j], acc[i][j]);
      }
    }
