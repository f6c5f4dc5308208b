// ALTERNATIVE 11.2 step2_flash_mma.cu
// No ldmatrix: each lane reads its own fragment values from shared memory as the mma layout
// places them (a 32-bit load where a pair is contiguous, two 16-bit loads where it is not: V's
// pairs run down a column, which is what ldmatrix's .trans does in one instruction). The mask
// from a precomputed limit per row, the softmax with exp2f and the quad's max by two shuffles
// written in a loop, the store one half at a time.
// @region
  const int g = lane / 4, t = lane % 4;
  const auto pair_at = [](const __half* tile, int row, int column) {
    return *reinterpret_cast<const std::uint32_t*>(tile + Layout::offset(row, column));
  };
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int j = 0; j < kTileKeys / 8; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) s[m][j][e] = 0.0f;
    }
  }
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) {
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const int row = first_row + 16 * m + g;
      const std::uint32_t a[4] = {pair_at(q_tile, row, 16 * kk + 2 * t),
                                  pair_at(q_tile, row + 8, 16 * kk + 2 * t),
                                  pair_at(q_tile, row, 16 * kk + 2 * t + 8),
                                  pair_at(q_tile, row + 8, 16 * kk + 2 * t + 8)};
#pragma unroll
      for (int j = 0; j < kTileKeys / 8; ++j) {
        const int key = 8 * j + g;  // B column n = g is key g of the piece
        mma_m16n8k16(s[m][j], a, pair_at(k_tile, key, 16 * kk + 2 * t),
                     pair_at(k_tile, key, 16 * kk + 2 * t + 8));
      }
    }
  }
// @region
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int query = first_query + 16 * m + lane / 4 + 8 * half;
      const int limit = causal ? min(tokens, query + 1) : tokens;  // keys below it count
#pragma unroll
      for (int j = 0; j < kTileKeys / 8; ++j) {
#pragma unroll
        for (int e = 2 * half; e < 2 * half + 2; ++e) {
          if (first_key + 8 * j + 2 * (lane % 4) + e % 2 >= limit) s[m][j][e] = -INFINITY;
        }
      }
    }
  }
// @region
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float highest = rows.max[m][r];
#pragma unroll
      for (int j = 0; j < kTileKeys / 8; ++j) {
        highest = fmaxf(highest, fmaxf(s[m][j][2 * r], s[m][j][2 * r + 1]));
      }
#pragma unroll
      for (int distance = 1; distance < 4; distance *= 2) {
        highest = fmaxf(highest, __shfl_xor_sync(kFullMask, highest, distance));
      }
      const float factor = exp2f((rows.max[m][r] - highest) * scale_log2);
      rows.max[m][r] = highest;
      rows.sum[m][r] *= factor;
#pragma unroll
      for (int n = 0; n < D / 8; ++n) {
#pragma unroll
        for (int e = 2 * r; e < 2 * r + 2; ++e) rows.o[m][n][e] *= factor;
      }
#pragma unroll
      for (int j = 0; j < kTileKeys / 8; ++j) {
#pragma unroll
        for (int e = 2 * r; e < 2 * r + 2; ++e) {
          s[m][j][e] = exp2f((s[m][j][e] - highest) * scale_log2);
          rows.sum[m][r] += s[m][j][e];
        }
      }
    }
  }
// @region
  const int g = lane / 4, t = lane % 4;
  const auto column_pair = [&](int key, int dim) {  // V[key][dim] and V[key + 1][dim]
    const __half2 pair = __halves2half2(v_tile[Layout::offset(key, dim)],
                                        v_tile[Layout::offset(key + 1, dim)]);
    return *reinterpret_cast<const std::uint32_t*>(&pair);
  };
#pragma unroll
  for (int kk = 0; kk < kTileKeys / 16; ++kk) {
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const std::uint32_t a[4] = {pack_halves(p[m][2 * kk][0], p[m][2 * kk][1]),
                                  pack_halves(p[m][2 * kk][2], p[m][2 * kk][3]),
                                  pack_halves(p[m][2 * kk + 1][0], p[m][2 * kk + 1][1]),
                                  pack_halves(p[m][2 * kk + 1][2], p[m][2 * kk + 1][3])};
#pragma unroll
      for (int n = 0; n < D / 8; ++n) {
        // B: k = key 16kk + 2t (+1) and + 8, n = dim 8n + g.
        mma_m16n8k16(rows.o[m][n], a, column_pair(16 * kk + 2 * t, 8 * n + g),
                     column_pair(16 * kk + 2 * t + 8, 8 * n + g));
      }
    }
  }
// @region
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float total = rows.sum[m][r];
      for (int distance = 1; distance < 4; distance *= 2) {
        total += __shfl_xor_sync(kFullMask, total, distance);
      }
      const int query = first_query + 16 * m + lane / 4 + 8 * r;
      if (query >= tokens) continue;
      __half* out = out_head + static_cast<long long>(query) * row_stride;
#pragma unroll
      for (int n = 0; n < D / 8; ++n) {
        out[8 * n + 2 * (lane % 4)] = __float2half_rn(rows.o[m][n][2 * r] / total);
        out[8 * n + 2 * (lane % 4) + 1] = __float2half_rn(rows.o[m][n][2 * r + 1] / total);
      }
    }
  }
