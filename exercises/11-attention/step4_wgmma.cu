// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 11.4
// (or: meson test -C build --suite 11-attention:exercise --print-errorlogs)
// (generated from solutions/11-attention/ by python3 -m tools.sync_exercises)
// Step 4: Hopper. The same loop as steps 2 and 3, with Hopper's own machinery for both halves of
// it. Compute capability 9.0 with sm_90a code only (attention_hopper.cuh). Changed from step 3:
// - Copies: the Tensor Memory Accelerator (TMA). One thread asks for a whole 128-token box of
//   Q, K or V (zeros past the sequence's end) and an mbarrier counts its bytes as they land: no
//   copy loop, no cp.async groups, no address arithmetic per thread.
// - Roles: warpgroup 0 is the producer (one thread issues every copy, and the warpgroup gives
//   its registers away with setmaxnreg); warpgroups 1 and 2 are the consumers, 64 query rows
//   each. The producer runs ahead through kStep4Stages stages of K and V; `full` barriers tell
//   the consumers a tile has landed, `empty` barriers tell the producer it may be overwritten.
// - Products: wgmma, one instruction per warpgroup for 64 rows x 128 keys (S = Q K^T, both
//   operands read from shared memory through descriptors) and for 64 rows x D (O += P V, P from
//   registers: the accumulators of S, rounded to FP16 pairs in place, as in step 2).
// The mask, the online softmax and the final store are step 2's, ready-made: a warp's part of a
// wgmma accumulator has step 2's layout (attention_hopper.cuh says why).
#include <cuda.h>

#include <cstdint>

#include "attention.cuh"
#include "attention_device.cuh"
#include "attention_hopper.cuh"
#include "attention_ready_made.cuh"

namespace attention::exercise {

using namespace hopper;  // mbarriers, the TMA, wgmma

namespace {

constexpr int kRows = kStep4Rows;       // query rows per block, kStep4Keys keys per tile
constexpr int kConsumers = kRows / 64;  // warpgroups of 64 rows
constexpr int kThreads = 128 * (1 + kConsumers);

}  // namespace

// S = Q K^T for one consumer warpgroup: its 64 rows of the Q tile (q_rows: the first of them, in
// each box) against the kStep4Keys keys of the K tile in k_tile, D dimensions in steps of 16.
// Issues the wgmma and commits them as one group; they run on after this returns (wgmma_wait
// says when they are done).
template <int D>
__device__ void issue_scores(Scores<1, kStep4Keys>& s, const unsigned char* q_rows,
                             const unsigned char* k_tile) {
  // TODO (step 4): a wgmma per 16 dimensions, each with the descriptors of its 16 columns of Q
  //       and of K (attention_hopper.cuh, matrix_descriptor: which major is each?), the first
  //       one overwriting s, the others adding to it; fenced before, committed after.
}

// P as the A operand of O += P V (Probabilities, attention_hopper.cuh), from the accumulators
// of S: the tile's unnormalized probabilities, FP32.
template <int N>
__device__ void pack_probabilities(const Scores<1, N>& p, Probabilities<N>& a) {
  // TODO (step 4): step 2's accumulate_pv made these registers for mma.sync; a warp's part of
  //       wgmma's A operand from registers has the same layout.
}

// O += P V for one consumer warpgroup: a holds the tile's probabilities as A fragments; v_tile
// is the V tile. Issues the wgmma and commits them as one group.
template <int D>
__device__ void issue_pv(const Probabilities<kStep4Keys>& a, const unsigned char* v_tile,
                         WarpRows<D, 1>& rows) {
  // TODO (step 4): for each 16 keys, the descriptor of V's 16 rows (rows are keys = k,
  //       dimensions = n contiguous: which major, and how far apart are the 64-dimension
  //       boxes?) and a wgmma with P's fragment. The registers of P and O were written since
  //       the last wgmma: fence first.
}

// The producer's work, by one thread: the block's Q tile once, then every K and V tile of its
// loop through the ring's stages. head, sequence: the block's; tiles: how many key tiles.
template <int D>
__device__ void produce_tiles(const TileRing<D>& ring, const CUtensorMap* q_map,
                              const CUtensorMap* k_map, const CUtensorMap* v_map,
                              int first_query, int tiles, int head, int sequence) {
  using QTile = typename TileRing<D>::QTile;
  using KVTile = typename TileRing<D>::KVTile;
  TileBarriers& barriers = *ring.barriers;
  arrive_and_expect_bytes(&barriers.q_full, QTile::kBytes);
  for (int box = 0; box < D / 64; ++box) {
    tma_load_box(ring.q + box * QTile::kBoxBytes, q_map, &barriers.q_full, 64 * box, head,
                 first_query, sequence);
  }
  // TODO (step 4): every K and V tile into stage tile % kStep4Stages, as soon as the consumers
  //       have given that stage's K (V) back: which phase of `k_empty` (`v_empty`) is that, the
  //       first time round? Announce each tile's bytes on its `full` barrier before its copies.
}

namespace {

template <int D, bool kCausal>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap q_map,
                 const __grid_constant__ CUtensorMap k_map,
                 const __grid_constant__ CUtensorMap v_map, Arguments args) {
#if defined(ATTENTION_HOPPER)
  extern __shared__ unsigned char shared_bytes[];
  __shared__ TileBarriers barriers;
  const TileRing<D> ring = make_tile_ring<D>(shared_bytes, &barriers, 4 * kConsumers);
  __syncthreads();  // the barriers are initialised

  const int first_query = blockIdx.x * kRows;
  const int key_end = kCausal ? min(args.tokens, first_query + kRows) : args.tokens;
  const int tiles = (key_end + kStep4Keys - 1) / kStep4Keys;
  const int warpgroup = threadIdx.x / 128;

  if (warpgroup == 0) {  // the producer: one thread; the others have nothing to do
    release_registers<24>();
    if (threadIdx.x == 0) {
      produce_tiles<D>(ring, &q_map, &k_map, &v_map, first_query, tiles, blockIdx.y,
                       blockIdx.z);
    }
    return;
  }

  claim_registers<240>();
  const int consumer = warpgroup - 1;
  const int lane = threadIdx.x % 32;
  // This warp's first query row: the consumer's 64 rows, 16 per warp.
  const int first_row = first_query + 64 * consumer + 16 * ((threadIdx.x / 32) % 4);
  const unsigned char* q_rows = ring.q + 64 * consumer * kBoxRowBytes;
  WarpRows<D, 1> rows;
  wait(&barriers.q_full, 0);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStep4Stages, parity = (t / kStep4Stages) % 2;
    const int first_key = t * kStep4Keys;
    Scores<1, kStep4Keys> s;
    // TODO (step 4): the scores of this tile once its K has landed, done before they are read;
    //       then K goes back to the producer (one arrival per warp).
    const int key_after = first_key + kStep4Keys;
    if (key_after > args.tokens || (kCausal && key_after > first_row + 1)) {
      ready_made::mask_scores<1, kStep4Keys>(s, first_row, first_key, args.tokens, kCausal);
    }
    ready_made::online_softmax<D, 1, kStep4Keys>(s, rows, args.scale_log2);
    // TODO (step 4): O += P V once V has landed; then V goes back to the producer, once no
    //       wgmma of this warp can still be reading it.
  }
  const int row_stride = args.heads * D;
  const long long head = (static_cast<long long>(blockIdx.z) * args.tokens * args.heads +
                          blockIdx.y) * D;
  ready_made::store_rows<D, 1>(rows, args.o + head, first_row, args.tokens, row_stride);
#endif
}

template <int D, bool kCausal>
void launch(const HeadMaps& maps, const Arguments& args, const Shape& shape) {
  constexpr int shared = TileRing<D>::kSharedBytes;
  const auto kernel = wgmma_kernel<D, kCausal>;
  allow_shared_memory(kernel, shared);
  const dim3 grid((shape.tokens + kRows - 1) / kRows, shape.heads, shape.batch);
  kernel<<<grid, kThreads, shared>>>(maps.q, maps.k, maps.v, args);
  COURSE_CHECK_LAUNCH("wgmma_kernel");
}

}  // namespace

void step4_wgmma(const __half* q, const __half* k, const __half* v, __half* o,
                 const Shape& shape, Workspace& workspace) {
  check_arguments("step4_wgmma", q, k, v, o, shape, kMaxTokens);
  require_gpu_for_step(4);
  workspace.begin_call();
  const Arguments args = arguments_of(q, k, v, o, shape);
  const HeadMaps maps = make_head_maps(q, k, v, shape);
  if (shape.head_dim == 64) {
    shape.causal ? launch<64, true>(maps, args, shape) : launch<64, false>(maps, args, shape);
  } else {
    shape.causal ? launch<128, true>(maps, args, shape) : launch<128, false>(maps, args, shape);
  }
}

}  // namespace attention::exercise
