// ALTERNATIVE 08.4 step4_tma_ring.cu
// The ring's stage and lap with bit operations (kStages is 4, a power of two: it % 4 is it & 3,
// and the lap's parity is bit 2 of it), the producer's parity for `empty` written as the
// complement of the lap's parity, B's boxes through a running pointer and column. The warp's
// release tests its lane with a mask, after a full-mask warp barrier.
// @top
static_assert(tensor_core_gemm::hopper::kStages == 4, "the bit arithmetic below assumes 4 stages");
// @region
  const int s = it & 3;
  const int lap_parity = (it >> 2) & 1;
  wait(&ring.empty[s], 1 - lap_parity, s, watchdog);
  arrive_and_expect_bytes(&ring.full[s], static_cast<unsigned>(A_STAGE_BYTES + B_STAGE_BYTES));
  tma_load_2d(ring.a_stage(s), a_map, &ring.full[s], t * BK, block_row);
  __half* box_destination = ring.b_stage(s);
  for (int column = block_col; column < block_col + BN; column += B_BOX_COLUMNS) {
    tma_load_2d(box_destination, b_map, &ring.full[s], column, t * BK);
    box_destination += BK * B_BOX_COLUMNS;
  }
// @region
  stage = it & 3;
  wait(&ring.full[stage], (it >> 2) & 1, stage, watchdog);
// @region
  __syncwarp(0xffffffffu);
  if ((threadIdx.x & 31) == 0) arrive(&ring.empty[stage]);
