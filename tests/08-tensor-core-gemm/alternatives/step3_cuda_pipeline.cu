// ALTERNATIVE 08.3 step3_multistage_swizzle.cu
// Another swizzle: each row ROTATES its 16-byte pieces by row % 8 within every 128-byte line
// ((piece + row) & 7 in the low 3 bits) instead of XORing them. Any layout is correct as long
// as it is a permutation of each row's pieces (no two pieces land on one slot) and cp.async and
// ldmatrix use the same one (both go through a_offset / b_offset); the rotation is one, and for
// a fixed piece the 8 consecutive rows an ldmatrix matrix reads get 8 different slots of the
// line, 8 different bank groups, so it is conflict-free as well. The ring's cp.async groups are
// committed and waited for with CUDA's own <cuda_pipeline.h> primitives (the same
// cp.async.commit_group / wait_group), and the stage a new slice goes to is computed from the
// slice's number (slice % kStages) instead of taken from the ring's running free_stage.
// @top
#include <cuda_pipeline.h>
// @region
  swizzled = (piece + row) & 7;
// @region
  swizzled = (piece & ~7) | ((piece + row) & 7);
// @region
    ldmatrix_x4(f.a[i], a_tile + a_offset(warp_row + i * MMA_M + (lane & 15),
                                          (kk >> 3) + (lane >> 4)));
// @region
    ldmatrix_x4_trans(r, b_tile + b_offset(kk + (lane & 15),
                                           ((warp_col + j * MMA_N) >> 3) + (lane >> 4)));
// @region
  for (int ahead = 0; ahead < kStages - 1; ++ahead) {
    copies.start(ahead, a_stages + ahead * A_STAGE, b_stages + ahead * B_STAGE);
    __pipeline_commit();  // one group per slot, past the end of k or not
  }
  __pipeline_wait_prior(kStages - 2);  // of the kStages - 1 groups, the oldest (slice 0) landed
  __syncthreads();
// @region
        const int ahead = t + kStages - 1;  // its stage: the one slice t - 1 used
        copies.start(ahead, a_stages + (ahead % kStages) * A_STAGE,
                     b_stages + (ahead % kStages) * B_STAGE);
        __pipeline_commit();
// @region
        __pipeline_wait_prior(kStages - 2);  // slice t + 1's copies, this thread's
        __syncthreads();  // every thread's are visible; no warp reads slice t's stage any more
