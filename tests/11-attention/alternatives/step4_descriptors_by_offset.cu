// ALTERNATIVE 11.4 step4_wgmma.cu
// The descriptors built once per product and moved by adding to their address field (bytes / 16
// in bits 0-13), as CUTLASS does; the P fragments packed with __halves2half2; the producer's
// parity as an XOR, V announced and copied before K; a consumer that waits for both tiles of the
// stage before its first product, and a __syncwarp before its lane 0 gives the stage back.
// @region
  const std::uint64_t q_base = matrix_descriptor(q_rows, 16, 1024);
  const std::uint64_t k_base = matrix_descriptor(k_tile, 16, 1024);
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) {
    const std::uint64_t q_step = (kk / 4) * BoxedTile<kStep4Rows, D>::kBoxBytes + (kk % 4) * 32;
    const std::uint64_t k_step = (kk / 4) * BoxedTile<kStep4Keys, D>::kBoxBytes + (kk % 4) * 32;
    wgmma_scores(s[0], q_base + (q_step >> 4), k_base + (k_step >> 4), kk == 0 ? 0 : 1);
  }
  wgmma_commit();
// @region
#pragma unroll
  for (int kk = 0; kk < N / 16; ++kk) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const float(&tile)[4] = p[0][2 * kk + half];
      const __half2 top = __halves2half2(__float2half_rn(tile[0]), __float2half_rn(tile[1]));
      const __half2 bottom = __halves2half2(__float2half_rn(tile[2]), __float2half_rn(tile[3]));
      a[kk][2 * half] = *reinterpret_cast<const std::uint32_t*>(&top);
      a[kk][2 * half + 1] = *reinterpret_cast<const std::uint32_t*>(&bottom);
    }
  }
// @region
  const std::uint64_t v_base = matrix_descriptor(v_tile, BoxedTile<kStep4Keys, D>::kBoxBytes, 1024);
  wgmma_fence();  // P's registers and O's were written since the last wgmma
#pragma unroll
  for (int kk = 0; kk < kStep4Keys / 16; ++kk) {
    wgmma_pv(rows.o[0], a[kk], v_base + ((kk * 16 * kBoxRowBytes) >> 4));
  }
  wgmma_commit();
// @region
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStep4Stages;
    const int given_back = ((t / kStep4Stages) & 1) ^ 1;
    wait(&barriers.v_empty[stage], given_back);
    wait(&barriers.k_empty[stage], given_back);
    arrive_and_expect_bytes(&barriers.v_full[stage], KVTile::kBytes);
    arrive_and_expect_bytes(&barriers.k_full[stage], KVTile::kBytes);
    for (int box = 0; box < D / 64; ++box) {
      const int column = 64 * box, offset = box * KVTile::kBoxBytes;
      tma_load_box(ring.v(stage) + offset, v_map, &barriers.v_full[stage], column, head,
                   t * kStep4Keys, sequence);
      tma_load_box(ring.k(stage) + offset, k_map, &barriers.k_full[stage], column, head,
                   t * kStep4Keys, sequence);
    }
  }
// @region
    wait(&barriers.k_full[stage], parity);
    wait(&barriers.v_full[stage], parity);
    issue_scores<D>(s, q_rows, ring.k(stage));
    wgmma_wait<0>();
    keep_in_registers(s[0]);
    __syncwarp();
    if (lane == 0) arrive(&barriers.k_empty[stage]);
// @region
    Probabilities<kStep4Keys> p;
    pack_probabilities<kStep4Keys>(s, p);
    issue_pv<D>(p, ring.v(stage), rows);
    wgmma_wait<0>();
    keep_in_registers(rows.o[0]);
    __syncwarp();
    if (lane == 0) arrive(&barriers.v_empty[stage]);
