// Step 5: the tensor cores kept busy while the softmax runs (FlashAttention-3's two overlaps),
// and causal blocks scheduled longest first. Compute capability 9.0 with sm_90a code only. Step
// 4's pieces are used ready-made: the producer, the two products and P's fragments. Changed from
// step 4:
// - Within a consumer warpgroup: the scores of tile t are issued together with O += P V of tile
//   t - 1, so that the softmax of tile t runs while the tensor cores compute that product. The
//   softmax can then no longer rescale O, which the product is adding into: it keeps the factor,
//   and O is rescaled once the product is done.
// - Between the two consumer warpgroups: they take turns issuing their products (two named
//   barriers), so that one's softmax runs while the other's products use the tensor cores.
// - Causal: the blocks with the most key tiles start first, so that the last blocks to run, the
//   ones no other block's work can hide, are the shortest.
#include <cuda.h>

#include <cstdint>

#include "attention.cuh"
#include "attention_device.cuh"
#include "attention_hopper.cuh"
#include "attention_ready_made.cuh"

namespace attention::solution {

using namespace hopper;  // mbarriers, the TMA, wgmma, named barriers

// Step 2's online softmax for one tile of N keys, without touching O: each row's max grows to
// cover the tile, the row's sum is brought to the new max and the tile's exponentials added to
// it, and s becomes exp2(scale_log2 (s - max)). rescale[r] receives the factor that brings what
// O accumulated under the old max to the new one (r = 0: the lane's row g; r = 1: row g + 8):
// O is still being written by the product of the previous tile.
template <int D, int N>
__device__ void softmax_rescaling_later(Scores<1, N>& s, WarpRows<D, 1>& rows, float scale_log2,
                                        float (&rescale)[2]) {
  // BEGIN SOLUTION
  // TODO (step 5): step 2's online_softmax for this warp's one row tile, with the output's
  //       rescale factor kept in `rescale` instead of applied.
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float tile_max = -INFINITY;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
      tile_max = fmaxf(tile_max, fmaxf(s[0][j][2 * r], s[0][j][2 * r + 1]));
    }
    tile_max = fmaxf(tile_max, __shfl_xor_sync(kFullMask, tile_max, 1));
    tile_max = fmaxf(tile_max, __shfl_xor_sync(kFullMask, tile_max, 2));
    const float new_max = fmaxf(rows.max[0][r], tile_max);  // finite: key 0 is in tile 0
    const float shift = new_max * scale_log2;
    rescale[r] = fast_exp2(rows.max[0][r] * scale_log2 - shift);
    rows.max[0][r] = new_max;
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
      s[0][j][2 * r] = fast_exp2(fmaf(s[0][j][2 * r], scale_log2, -shift));
      s[0][j][2 * r + 1] = fast_exp2(fmaf(s[0][j][2 * r + 1], scale_log2, -shift));
      sum += s[0][j][2 * r] + s[0][j][2 * r + 1];
    }
    rows.sum[0][r] = rows.sum[0][r] * rescale[r] + sum;
  }
  // END SOLUTION
}

// O *= the factor of each of the lane's two rows (softmax_rescaling_later's `rescale`).
template <int D>
__device__ __forceinline__ void rescale_output(WarpRows<D, 1>& rows, const float (&rescale)[2]) {
#pragma unroll
  for (int n = 0; n < D / 8; ++n) {
    rows.o[0][n][0] *= rescale[0];
    rows.o[0][n][1] *= rescale[0];
    rows.o[0][n][2] *= rescale[1];
    rows.o[0][n][3] *= rescale[1];
  }
}

// The block of kStep4Rows query rows this block takes. Blocks start in the order of blockIdx.x
// first (the grid's fastest dimension): the blocks of one head and sequence, which share their K
// and V tiles through L2, run side by side.
__device__ __forceinline__ int query_block(bool causal) {
  int block = blockIdx.x;
  // BEGIN SOLUTION
  // TODO (step 5): causal, block b of the sequence walks b + 1 key tiles: which order of the
  //       blocks leaves the shortest ones for the end?
  if (causal) block = gridDim.x - 1 - block;
  // END SOLUTION
  return block;
}

namespace {

constexpr int kRows = kStep4Rows;       // query rows per block, kStep4Keys keys per tile
constexpr int kConsumers = kRows / 64;  // warpgroups of 64 rows
constexpr int kThreads = 128 * (1 + kConsumers);
static_assert(kConsumers == 2, "the turns below are between two consumer warpgroups");

// Consumer c's turn to issue products: named barrier 1 + c, which completes once both consumer
// warpgroups (256 threads) have arrived: c's own threads waiting, and the other's passing it.
[[maybe_unused]] __device__ __forceinline__ void wait_for_turn(int consumer) {
  named_barrier_sync(1 + consumer, 128 * kConsumers);
}
[[maybe_unused]] __device__ __forceinline__ void pass_turn(int consumer) {
  named_barrier_arrive(1 + (1 - consumer), 128 * kConsumers);
}

template <int D, bool kCausal>
__global__ void __launch_bounds__(kThreads, 1)
    pingpong_kernel(const __grid_constant__ CUtensorMap q_map,
                    const __grid_constant__ CUtensorMap k_map,
                    const __grid_constant__ CUtensorMap v_map, Arguments args) {
#if defined(ATTENTION_HOPPER)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ TileBarriers barriers;
  const TileRing<D> ring = make_tile_ring<D>(shared_bytes, &barriers, 4 * kConsumers);
  __syncthreads();  // the barriers are initialised

  const int head = blockIdx.y, sequence = blockIdx.z;
  const int first_query = query_block(kCausal) * kRows;
  const int key_end = kCausal ? min(args.tokens, first_query + kRows) : args.tokens;
  const int tiles = (key_end + kStep4Keys - 1) / kStep4Keys;
  const int warpgroup = threadIdx.x / 128;

  if (warpgroup == 0) {  // the producer, step 4's
    release_registers<24>();
    if (threadIdx.x == 0) {
      ready_made::produce_tiles<D>(ring, &q_map, &k_map, &v_map, first_query, tiles, head,
                                   sequence);
    }
    return;
  }

  claim_registers<240>();
  const int consumer = warpgroup - 1;
  const int lane = threadIdx.x % 32;
  const int first_row = first_query + 64 * consumer + 16 * ((threadIdx.x / 32) % 4);
  const unsigned char* q_rows = ring.q + 64 * consumer * kBoxRowBytes;
  // Tile t's scores need a mask where they reach past the sequence or (causal) past this warp's
  // first query.
  const auto needs_mask = [&](int t) {
    const int end = (t + 1) * kStep4Keys;
    return end > args.tokens || (kCausal && end > first_row + 1);
  };
  WarpRows<D, 1> rows;
  Scores<1, kStep4Keys> s;
  Probabilities<kStep4Keys> p;
  float rescale[2];
  if (consumer == 1) pass_turn(1);  // consumer 0 takes the first turn
  wait(&barriers.q_full, 0);
  // BEGIN SOLUTION
  // TODO (step 5): tile 0's scores alone; then for each later tile t, its scores and tile
  //       t - 1's O += P V issued in one turn, tile t's softmax while that product runs (K of
  //       tile t given back once its scores are done), and O rescaled (and V of tile t - 1
  //       given back) once the product is done; last, tile T - 1's product. Every turn taken
  //       is passed to the other consumer, except consumer 1's last: consumer 0 has no turn
  //       left to take.
  wait(&barriers.k_full[0], 0);
  wait_for_turn(consumer);
  ready_made::issue_scores<D>(s, q_rows, ring.k(0));
  pass_turn(consumer);
  wgmma_wait<0>();
  keep_in_registers(s[0]);
  if (lane == 0) arrive(&barriers.k_empty[0]);
  if (needs_mask(0)) ready_made::mask_scores<1, kStep4Keys>(s, first_row, 0, args.tokens, kCausal);
  softmax_rescaling_later<D, kStep4Keys>(s, rows, args.scale_log2, rescale);  // O is still 0
  ready_made::pack_probabilities<kStep4Keys>(s, p);
  for (int t = 1; t < tiles; ++t) {
    const int stage = t % kStep4Stages, parity = (t / kStep4Stages) % 2;
    const int before = (t - 1) % kStep4Stages, before_parity = ((t - 1) / kStep4Stages) % 2;
    wait(&barriers.k_full[stage], parity);
    wait(&barriers.v_full[before], before_parity);
    wait_for_turn(consumer);
    ready_made::issue_scores<D>(s, q_rows, ring.k(stage));
    ready_made::issue_pv<D>(p, ring.v(before), rows);
    pass_turn(consumer);
    wgmma_wait<1>();  // the scores (the older group) are done; the product runs on
    keep_in_registers(s[0]);
    if (lane == 0) arrive(&barriers.k_empty[stage]);
    if (needs_mask(t)) {
      ready_made::mask_scores<1, kStep4Keys>(s, first_row, t * kStep4Keys, args.tokens, kCausal);
    }
    softmax_rescaling_later<D, kStep4Keys>(s, rows, args.scale_log2, rescale);
    wgmma_wait<0>();  // the product of tile t - 1 is done: its V is free, O may be scaled
    keep_in_registers(rows.o[0]);
    if (lane == 0) arrive(&barriers.v_empty[before]);
    rescale_output<D>(rows, rescale);
    ready_made::pack_probabilities<kStep4Keys>(s, p);
  }
  const int last = (tiles - 1) % kStep4Stages, last_parity = ((tiles - 1) / kStep4Stages) % 2;
  wait(&barriers.v_full[last], last_parity);
  wait_for_turn(consumer);
  ready_made::issue_pv<D>(p, ring.v(last), rows);
  if (consumer == 0) pass_turn(consumer);
  wgmma_wait<0>();
  keep_in_registers(rows.o[0]);
  if (lane == 0) arrive(&barriers.v_empty[last]);
  // END SOLUTION
  const int row_stride = args.heads * D;
  const long long head_start =
      (static_cast<long long>(sequence) * args.tokens * args.heads + head) * D;
  ready_made::store_rows<D, 1>(rows, args.o + head_start, first_row, args.tokens, row_stride);
#endif
}

template <int D, bool kCausal>
void launch(const HeadMaps& maps, const Arguments& args, const Shape& shape) {
  constexpr int shared = TileRing<D>::kSharedBytes;
  const auto kernel = pingpong_kernel<D, kCausal>;
  allow_shared_memory(kernel, shared);
  const dim3 grid((shape.tokens + kRows - 1) / kRows, shape.heads, shape.batch);
  kernel<<<grid, kThreads, shared>>>(maps.q, maps.k, maps.v, args);
  COURSE_CHECK_LAUNCH("pingpong_kernel");
}

}  // namespace

void step5_pingpong(const __half* q, const __half* k, const __half* v, __half* o,
                    const Shape& shape, Workspace& workspace) {
  check_arguments("step5_pingpong", q, k, v, o, shape, kMaxTokens);
  require_gpu_for_step(5);
  workspace.begin_call();
  const Arguments args = arguments_of(q, k, v, o, shape);
  const HeadMaps maps = make_head_maps(q, k, v, shape);
  if (shape.head_dim == 64) {
    shape.causal ? launch<64, true>(maps, args, shape) : launch<64, false>(maps, args, shape);
  } else {
    shape.causal ? launch<128, true>(maps, args, shape) : launch<128, false>(maps, args, shape);
  }
}

}  // namespace attention::solution
