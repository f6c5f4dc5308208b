// ALTERNATIVE 07.1 step1_1d_blocktiling.cu
// Loop order turned around: the thread's column of Ntile goes into BK registers first (each
// value loaded once), then each of its TM rows takes a dot product with it through fmaf.
// @region
    float n_column[BK];
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) n_column[dot] = Ntile[dot * BN + thread_col];
#pragma unroll
    for (int r = 0; r < TM; ++r) {
      const float* m_row_values = Mtile + (thread_row * TM + r) * BK;
#pragma unroll
      for (int dot = 0; dot < BK; ++dot) acc[r] = fmaf(m_row_values[dot], n_column[dot], acc[r]);
    }
