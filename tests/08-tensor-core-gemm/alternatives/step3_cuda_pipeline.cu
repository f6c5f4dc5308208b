// ALTERNATIVE 08.3 step3_multistage_swizzle.cu
// Another swizzle: each row ROTATES its 16-byte pieces by row % 8 within every 128-byte line
// ((piece + row) & 7 in the low 3 bits) instead of XORing them. Any layout is correct as long
// as it is a permutation of each row's pieces (no two pieces land on one slot) and cp.async and
// ldmatrix use the same one (both go through a_offset / b_offset); the rotation is one, and for
// a fixed piece the 8 consecutive rows an ldmatrix matrix reads get 8 different slots of the
// line, 8 different bank groups, so it is conflict-free as well. The ring's cp.async groups are
// committed and waited for with CUDA's own <cuda_pipeline.h> primitives (the same
// cp.async.commit_group / wait_group), and the slice to fetch next and its stage are kept as
// running counters (fetched = t + kStages - 1, write_stage = fetched % kStages) instead of being
// computed from t.
// @top
#include <cuda_pipeline.h>
// @region
  swizzled = (piece + row) & 7;
// @region
  swizzled = (piece & ~7) | ((piece + row) & 7);
// @region
  int fetched = 0;  // slices whose copies have been started (or skipped, past the end)
  for (; fetched < kStages - 1; ++fetched) {
    if (fetched < slices) {
      start_slice(A, B, m, k, n, ldb, block_row, block_col, fetched * BK,
                  a_stages + fetched * A_STAGE, b_stages + fetched * B_STAGE);
    }
    __pipeline_commit();  // one group per slot, empty or not
  }
  int write_stage = kStages - 1;  // where slice `fetched` goes: the stage slice t - 1 used
// @region
    __pipeline_wait_prior(kStages - 2);  // of the kStages - 1 newest groups, slice t's has landed
    __syncthreads();  // every thread's copies are visible; every warp is done with slice t - 1
    if (fetched < slices) {
      start_slice(A, B, m, k, n, ldb, block_row, block_col, fetched * BK,
                  a_stages + write_stage * A_STAGE, b_stages + write_stage * B_STAGE);
    }
    __pipeline_commit();
    ++fetched;
    write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
// @region
        ldmatrix_x4(a[i], a_tile + a_offset(warp_row + i * MMA_M + (lane & 15),
                                            (kk >> 3) + (lane >> 4)));
// @region
        ldmatrix_x4_trans(r, b_tile + b_offset(kk + (lane & 15),
                                               ((warp_col + j * MMA_N) >> 3) + (lane >> 4)));
