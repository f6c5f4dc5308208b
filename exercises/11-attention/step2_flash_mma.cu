// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 11.2
// (or: meson test -C build --suite 11-attention:exercise --print-errorlogs)
// (generated from solutions/11-attention/ by python3 -m tools.sync_exercises)
// Step 2: FlashAttention-2's loop, fused, on the tensor cores (mma.sync.m16n8k16).
// A block takes kBlockQueries = 64 query rows of one (batch, head): 4 warps of 16 rows. It walks
// the keys in tiles of kTileKeys = 64. For each tile: the K and V tiles come into shared memory;
// each warp computes its 16 x 64 scores S = Q K^T in registers; the online softmax updates each
// row's running max and sum and rescales the output accumulators; P = exp(S - max), rounded to
// FP16 in registers, is the A operand of O += P V. The N x N scores never reach memory.
// The four device functions below are this step's lesson; step 3 reuses them (ready-made, for
// its tests) with two row tiles per warp and another shared-memory layout: they take M (16-row
// tiles per warp) and Layout (where row r, column c of a tile sits) as template parameters.
#include "attention.cuh"
#include "attention_device.cuh"

namespace attention::exercise {

// S = Q K^T for this warp's M tiles of 16 query rows (rows first_row.. of q_tile) and the
// kTileKeys keys of k_tile; both tiles are [rows][D] halves laid out by Layout. s[m][j] is the
// m16n8 accumulator tile of row tile m and keys 8j .. 8j + 7 (raw dot products, unscaled).
template <int D, int M, class Layout>
__device__ void tile_scores(const __half* q_tile, const __half* k_tile, int first_row,
                            Scores<M>& s) {
  const int lane = threadIdx.x % 32;
  // TODO (step 2): s = Q K^T over the D dimensions, 16 at a time (one m16n8k16 per 16 x 8
  //       piece). Q's A fragments: ldmatrix_x4 of a 16 x 16 block of q_tile (which lane gives
  //       which row's address?). K's B fragments: K is stored [key][dim], which is the
  //       column-major 16 x 8 B operand (k = dim, n = key) as ldmatrix delivers it without .trans.
}

// Hides the scores that must not count: keys at or past `tokens` (the tile's tail: their rows
// of K are zeros, and a zero score would still count), and when causal, keys after the query.
// first_query: the sequence index of this warp's first row; first_key: the tile's first key.
// N: the keys of a tile (step 4 passes its own).
template <int M, int N = kTileKeys>
__device__ void mask_scores(Scores<M, N>& s, int first_query, int first_key, int tokens,
                            bool causal) {
  const int lane = threadIdx.x % 32;
  // TODO (step 2): every score that must not count becomes a value that exp2 turns into exactly
  //       0, whatever the row's max is.
}

// The online softmax for one key tile: each row's max grows to cover the tile, what was summed
// and accumulated under the old max is rescaled to the new one, and s becomes
// exp2(scale_log2 (s - max)), the tile's unnormalized probabilities, added into the row sums.
template <int D, int M, int N = kTileKeys>
__device__ void online_softmax(Scores<M, N>& s, WarpRows<D, M>& rows, float scale_log2) {
  // TODO (step 2): for each of the lane's rows: the tile's max over the whole row (the four
  //       lanes of a quad share a row), the new running max, the factor that brings the old
  //       sum and output to it, then the exponentials and their sum.
}

// O += P V for one key tile: p holds the tile's probabilities in the accumulator layout of S;
// v_tile is the [key][D] tile of V laid out by Layout.
template <int D, int M, class Layout>
__device__ void accumulate_pv(const Scores<M>& p, const __half* v_tile, WarpRows<D, M>& rows) {
  const int lane = threadIdx.x % 32;
  // TODO (step 2): 16 keys at a time: the A fragment of P for those keys, from registers
  //       (figures/accumulator-is-a-fragment.svg), and V's B fragments. V is stored [key][dim],
  //       row-major for the B operand (k = key, n = dim): what must ldmatrix do to it?
}

// After the last tile: O = o / sum for each row, rounded to FP16 and stored (rows at or past
// `tokens` are not stored). out_head: row 0 of this (batch, head) in O; first_query: the sequence
// index of the warp's first row; row_stride: halves from one token to the next (heads x D).
template <int D, int M>
__device__ void store_rows(const WarpRows<D, M>& rows, __half* out_head, int first_query,
                           int tokens, int row_stride) {
  const int lane = threadIdx.x % 32;
  // TODO (step 2): each row's whole sum (the quad's lanes hold parts of it), then every
  //       accumulator of the row divided by it, stored as FP16 pairs.
}

namespace {

constexpr int kWarps = kStep2Warps;
constexpr int kRowTiles = kStep2RowTiles;
constexpr int kThreads = 32 * kWarps;
constexpr int kBlockQueries = 16 * kRowTiles * kWarps;  // 64

// One stage: copy the K and V tiles, wait, compute, wait for every warp, copy the next ones.
template <int D, bool kCausal>
__global__ void __launch_bounds__(kThreads) flash_kernel(Arguments args) {
  using Layout = PaddedRows<D>;
  constexpr int kTileElements = kTileKeys * Layout::kRowElements;
  extern __shared__ __align__(16) __half shared[];
  __half* q_tile = shared;                                           // kBlockQueries rows
  __half* k_tile = q_tile + kBlockQueries * Layout::kRowElements;   // kTileKeys rows
  __half* v_tile = k_tile + kTileElements;                          // kTileKeys rows

  const int warp = threadIdx.x / 32;
  const int first_query = blockIdx.x * kBlockQueries;
  const int row_stride = args.heads * D;
  const long long head = (static_cast<long long>(blockIdx.z) * args.tokens * args.heads +
                          blockIdx.y) * D;  // element (token 0, this head) of each array
  const int warp_row = warp * 16 * kRowTiles;  // in the block's tile
  // Causal: no key past the block's last query counts.
  const int key_end = kCausal ? min(args.tokens, first_query + kBlockQueries) : args.tokens;
  const int tiles = (key_end + kTileKeys - 1) / kTileKeys;

  copy_rows_async<D, kBlockQueries, kThreads, Layout>(q_tile, args.q + head, first_query,
                                                      args.tokens, row_stride);
  WarpRows<D, kRowTiles> rows;
  for (int tile = 0; tile < tiles; ++tile) {
    const int first_key = tile * kTileKeys;
    copy_rows_async<D, kTileKeys, kThreads, Layout>(k_tile, args.k + head, first_key,
                                                    args.tokens, row_stride);
    copy_rows_async<D, kTileKeys, kThreads, Layout>(v_tile, args.v + head, first_key,
                                                    args.tokens, row_stride);
    commit_copies();
    wait_copies<0>();
    __syncthreads();  // every thread's copies have landed
    Scores<kRowTiles> s;
    tile_scores<D, kRowTiles, Layout>(q_tile, k_tile, warp_row, s);
    // Only tiles that reach past the sequence, or (causal) past the warp's first query, hold
    // scores to hide.
    if (first_key + kTileKeys > args.tokens ||
        (kCausal && first_key + kTileKeys > first_query + warp_row + 1)) {
      mask_scores<kRowTiles>(s, first_query + warp_row, first_key, args.tokens, kCausal);
    }
    online_softmax<D, kRowTiles>(s, rows, args.scale_log2);
    accumulate_pv<D, kRowTiles, Layout>(s, v_tile, rows);
    __syncthreads();  // every warp is done with the tiles before they are copied over
  }
  store_rows<D, kRowTiles>(rows, args.o + head, first_query + warp_row, args.tokens, row_stride);
}

template <int D, bool kCausal>
void launch(const Arguments& args, const Shape& shape) {
  constexpr int shared = (kBlockQueries + 2 * kTileKeys) * PaddedRows<D>::kRowElements * 2;
  const auto kernel = flash_kernel<D, kCausal>;
  allow_shared_memory(kernel, shared);
  const dim3 grid((shape.tokens + kBlockQueries - 1) / kBlockQueries, shape.heads, shape.batch);
  kernel<<<grid, kThreads, shared>>>(args);
  COURSE_CHECK_LAUNCH("flash_kernel");
}

}  // namespace

void step2_flash_mma(const __half* q, const __half* k, const __half* v, __half* o,
                     const Shape& shape, Workspace& workspace) {
  check_arguments("step2_flash_mma", q, k, v, o, shape, kMaxTokens);
  require_gpu_for_step(2);
  workspace.begin_call();
  const Arguments args = arguments_of(q, k, v, o, shape);
  if (shape.head_dim == 64) {
    shape.causal ? launch<64, true>(args, shape) : launch<64, false>(args, shape);
  } else {
    shape.causal ? launch<128, true>(args, shape) : launch<128, false>(args, shape);
  }
}

}  // namespace attention::exercise
