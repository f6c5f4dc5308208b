// ALTERNATIVE 07.3 step3_vectorized_loads.cu
// The matrices seen as arrays of float4: row r of M holds k / 4 of them, row r of N n / 4 (k and
// n are multiples of 4 on this path, and the pointers 16-byte aligned), indexed in float4 units;
// the inner loop reads its two float4 of each tile through float4 pointers.
// @region
      const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      const float4* M4 = reinterpret_cast<const float4*>(M);
      const float4* N4 = reinterpret_cast<const float4*>(N);
      const int quad = threadIdx.x & 1, r = threadIdx.x >> 1;  // 2 float4 per row of M's tile
      const int m_row = block_row + r, m_quad = tile / 4 + quad;
      const float4 v = m_row < m && 4 * m_quad < k ? M4[m_row * (k / 4) + m_quad] : zero;
      const float parts[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) Mtile_t[(4 * quad + e) * S + r] = parts[e];
      const int n_quad = threadIdx.x & 31, n_r = threadIdx.x >> 5;  // 32 float4 per row of N's
      const int n_row = tile + n_r, n_col_quad = block_col / 4 + n_quad;
      reinterpret_cast<float4*>(Ntile)[n_r * (BN / 4) + n_quad] =
          n_row < k && 4 * n_col_quad < n ? N4[n_row * (n / 4) + n_col_quad] : zero;
// @region
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      const float4* m4 = reinterpret_cast<const float4*>(Mtile_t + dot * S) + thread_row * (TM / 4);
      const float4* n4 = reinterpret_cast<const float4*>(Ntile + dot * BN) + thread_col * (TN / 4);
      const float4 a0 = m4[0], a1 = m4[1], b0 = n4[0], b1 = n4[1];
      const float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
      }
    }
