// ALTERNATIVE 08.4 step4_wgmma_tma.cu
// The ring's bookkeeping as two running counters on each side instead of s = t % kStages and
// lap = t / kStages: `stage` steps 0, 1, .., kStages - 1, 0, ..; `phase` (= lap & 1) flips each
// time stage wraps to 0. The consumer waits on full[stage] for parity `phase` (lap L completes
// phase L of full[stage], whose parity is L & 1); the producer waits on empty[stage] for parity
// `phase ^ 1` (on lap 0 a fresh barrier passes parity 1 at once; on lap L >= 1 it waits for the
// consumers' release of lap L - 1, empty's phase L - 1). Still one arrive on empty per consumer
// warp (its barrier counts kConsumers * 4), by lane 0 after wgmma_wait<0>. The wgmma descriptors
// are made once per stage and advanced along k by adding to their address field (in units of
// 16 bytes: 32 bytes of A's swizzled rows = 2, 16 rows of B's 128-byte rows = 128): the same
// 64-bit values as matrix_descriptor of the advanced pointers, the shared addresses being far
// below the field's 2^18 bytes. C is stored element by element, one row pointer per row.
// @region
    int stage = 0, phase = 0;  // where slice t goes, and the parity of its lap
    for (int t = 0; t < slices; ++t) {
      wait(&empty[stage], phase ^ 1, stage, watchdog);  // both consumers gave the stage back
      arrive_and_expect_bytes(&full[stage], kStageBytes);
      __half* a_destination = a_stage(stage);
      __half* b_destination = b_stage(stage);
      tma_load_2d(a_destination, &a_map, &full[stage], t * BK, block_row);
      for (int column = 0; column < BN; column += B_BOX_COLUMNS) {
        tma_load_2d(b_destination, &b_map, &full[stage], block_col + column, t * BK);
        b_destination += BK * B_BOX_COLUMNS;  // the next 64 x 64 box
      }
      if (++stage == kStages) {
        stage = 0;
        phase ^= 1;
      }
    }
// @region
  int stage = 0, phase = 0;
  for (int t = 0; t < slices; ++t) {
    wait(&full[stage], phase, stage, watchdog);  // the TMA has written slice t
    wgmma_fence();
    const std::uint64_t a_descriptor =
        matrix_descriptor(a_stage(stage) + consumer * CONSUMER_M * BK, 16, 1024);
    const std::uint64_t b_descriptor =
        matrix_descriptor(b_stage(stage), BK * B_BOX_COLUMNS * 2, 1024);
#pragma unroll
    for (int step = 0; step < BK / 16; ++step) {
      wgmma_m64n256k16(d, a_descriptor + step * (16 * 2 / 16),
                       b_descriptor + step * (16 * B_BOX_COLUMNS * 2 / 16));
    }
    wgmma_commit();
    wgmma_wait<0>();  // the wgmma have read the stage: it may be refilled
    if ((threadIdx.x & 31) == 0) arrive(&empty[stage]);
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1;
    }
  }
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
