// ALTERNATIVE 11.5 step5_pingpong.cu
// One loop of T + 1 turns instead of a first tile, a loop and a last product: turn t issues
// tile t's scores (when there is a tile t) and tile t - 1's product (when there is a tile
// t - 1). The softmax with exp2f and the row's max and sum in separate passes; the causal order
// written as a conditional expression.
// @region
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float tile_max = rows.max[0][r];
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
#pragma unroll
      for (int e = 2 * r; e < 2 * r + 2; ++e) tile_max = fmaxf(tile_max, s[0][j][e]);
    }
#pragma unroll
    for (int lanes = 1; lanes < 4; lanes *= 2) {
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, lanes));
    }
    rescale[r] = exp2f((rows.max[0][r] - tile_max) * scale_log2);
    rows.max[0][r] = tile_max;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
#pragma unroll
      for (int e = 2 * r; e < 2 * r + 2; ++e) {
        s[0][j][e] = exp2f((s[0][j][e] - tile_max) * scale_log2);
      }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) sum += s[0][j][2 * r] + s[0][j][2 * r + 1];
    rows.sum[0][r] = fmaf(rows.sum[0][r], rescale[r], sum);
  }
// @region
  block = causal ? static_cast<int>(gridDim.x) - 1 - block : block;
// @region
  for (int t = 0; t <= tiles; ++t) {
    const bool scores = t < tiles, product = t > 0;
    const int stage = t % kStep4Stages, before = (t + kStep4Stages - 1) % kStep4Stages;
    if (scores) wait(&barriers.k_full[stage], (t / kStep4Stages) % 2);
    if (product) wait(&barriers.v_full[before], ((t - 1) / kStep4Stages) % 2);
    wait_for_turn(consumer);
    if (scores) ready_made::issue_scores<D>(s, q_rows, ring.k(stage));
    if (product) ready_made::issue_pv<D>(p, ring.v(before), rows);
    if (scores || consumer == 0) pass_turn(consumer);
    if (scores) {
      if (product) {
        wgmma_wait<1>();
      } else {
        wgmma_wait<0>();
      }
      keep_in_registers(s[0]);
      if (lane == 0) arrive(&barriers.k_empty[stage]);
      if (needs_mask(t)) {
        ready_made::mask_scores<1, kStep4Keys>(s, first_row, t * kStep4Keys, args.tokens,
                                               kCausal);
      }
      softmax_rescaling_later<D, kStep4Keys>(s, rows, args.scale_log2, rescale);
    }
    if (product) {
      wgmma_wait<0>();
      keep_in_registers(rows.o[0]);
      if (lane == 0) arrive(&barriers.v_empty[before]);
    }
    if (scores) {
      rescale_output<D>(rows, rescale);  // at t = 0, O is 0 and stays 0
      ready_made::pack_probabilities<kStep4Keys>(s, p);
    }
  }
