// ALTERNATIVE 07.2 step2_2d_blocktiling.cu
// Pointers to the thread's column of Mtile and row of Ntile at each dot, and the 8 x 8 outer
// product as one flat loop over TM * TN, unrolled: every index is a constant, so acc stays in
// registers.
// @region
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      const float* m_column = Mtile + thread_row * TM * BK + dot;  // row i at m_column[i * BK]
      const float* n_slice = Ntile + dot * BN + thread_col * TN;
#pragma unroll
      for (int i = 0; i < TM; ++i) m_values[i] = m_column[i * BK];
#pragma unroll
      for (int j = 0; j < TN; ++j) n_values[j] = n_slice[j];
#pragma unroll
      for (int ij = 0; ij < TM * TN; ++ij) {
        acc[ij / TN][ij % TN] = fmaf(m_values[ij / TN], n_values[ij % TN], acc[ij / TN][ij % TN]);
      }
    }
