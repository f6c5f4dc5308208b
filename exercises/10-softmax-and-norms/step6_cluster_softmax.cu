// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.6
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 6: a long row kept on chip across a thread block cluster (compute capability 9.0).
// Changed from steps 3 and 4: a row is cut into slices, one block each, and the blocks of a row
// are launched as one cluster: they run at the same time, on one GPC, and each can write into
// the others' shared memory (distributed shared memory). Each block holds its slice in registers
// (step 3's vectors) and reduces it to one (max, sum) pair (step 4's rule); it sends the pair into
// the inbox of every block of the cluster (its own included), where a barrier in shared memory
// counts the bytes that land; once a block's inbox holds every block's pair, it merges them the
// same way as every other block, normalizes its slice from its registers and stores it. No
// barrier of the whole cluster per row, and no read that waits for another SM: each block waits
// only for the pairs to land. The row is read once and written once: 2 words per element where
// step 4 moves 3, for rows of up to kMaxClusterCols columns.
// Two launch shapes, ready-made around your code. Up to 64K columns, slices of at most
// kClusterSliceCols columns, several blocks per SM, one row per cluster: one block's loads are in
// flight while another reduces (step 3's single block per 32K-column row leaves its SM idle
// meanwhile). Longer rows: clusters of 8 blocks, one an SM, as many as the GPU runs at once, each
// looping over rows; while a block works on a row from its registers, the TMA copies its slice of
// the next row into shared memory, so that the memory never waits for the arithmetic.
#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "course/hopper.cuh"
#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::exercise {

// The row's (max, sum) pair, from `mine`, this block's pair (the same in every thread of the
// block): in every thread of every block of the cluster, the same pair. Every thread of every
// block of the cluster calls it, once per row: `turn` counts the rows this block has done before
// (0, 1, 2, ...), and `inbox` was opened (open_inbox) by the whole cluster. Between two calls
// the block meets at a barrier of its own (any block reduction has one), so that every thread
// has read this row's inbox before the block's pair of the next row but one can land in it.
__device__ inline Partial merge_across_cluster(Partial mine, ClusterInbox& inbox, int turn) {
  Partial row = mine;
#if __CUDA_ARCH__ >= 900
  // TODO (step 6): send this block's pair into its own slot of the inbox of every block of the
  //       cluster, this turn's inbox (course::hopper::store_pair_to_block, counted on that
  //       inbox's barrier); wait until this block's barrier has counted the pairs of all the
  //       cluster's blocks; then merge the pairs in the same way in every thread, so that every
  //       block gets the same row pair.
#endif
  return row;
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900  // the kernel's code exists from 9.0 on
struct MergePartials {
  __device__ Partial operator()(Partial a, Partial b) const {
    return ready_made::merge_partials(a, b);
  }
};
#endif

// The softmax of the row whose slice this block holds: x[s * W + j] is column j of vector
// first + s * blockDim.x + threadIdx.x of the row, -inf where that vector is at or past `end`
// (W = kWidth<float>). Every thread of every block of the cluster calls it, once per row, with
// the turn and inbox of merge_across_cluster.
template <int kSlots>
__device__ void softmax_of_slice(float (&x)[kSlots * kWidth<float>], RowOf<float> out, int first,
                                 int end, ClusterInbox& inbox, int turn) {
#if __CUDA_ARCH__ >= 900
  [[maybe_unused]] constexpr int W = kWidth<float>;  // floats per vector
  // TODO (step 6): reduce x to this block's (max, sum) pair, get the row's pair from the whole
  //       cluster, and store every vector of the slice as exp(x - the row's max) / the row's sum.
  // This thread's pair: its max, and its values replaced by exp(x - that max), summed.
#endif
}

namespace {

// Vectors per thread: up to 64K columns 8 (a block of 1024 threads: a slice of 32K columns);
// longer rows, staged, 22 (384 threads for a slice of 32K columns; one block an SM).
constexpr int kSliceSlots = 8;
constexpr int kStagedSlots = 22;
constexpr int kStagedThreads = 384;
constexpr int kStagedBlocks = 8;  // the portable cluster size

// A cluster of `blocks_per_row` blocks per row; block `rank` of a cluster holds the vectors
// [rank * slice, (rank + 1) * slice) of its row, kSlots per thread (-inf past the slice), in
// blocks of at most kMaxThreads threads. Each cluster loops over rows, `gridDim.x /
// blocks_per_row` apart. kStaged (rows that start on 16-byte boundaries): the slice of the
// block's next row is copied into shared memory (dynamic, `slice` vectors) by one bulk copy of
// the TMA while the block works on this one, and one block fills an SM; otherwise the loads are
// step 3's, and up to 512 threads leave room for two blocks an SM.
template <int kSlots, int kMaxThreads, bool kStaged>
__global__ void __launch_bounds__(kMaxThreads, kStaged ? 1 : 1024 / kMaxThreads)
    cluster_row_kernel(const float* input, float* output, long long rows, int cols,
                       int blocks_per_row, int slice) {
#if __CUDA_ARCH__ >= 900
  constexpr int W = kWidth<float>;
  __shared__ ClusterInbox inbox;
  extern __shared__ __align__(16) float4 next_slice[];  // kStaged: the slice of the next row
  __shared__ std::uint64_t slice_landed;                 // kStaged: counts its bytes
  const int rank = static_cast<int>(cg::this_cluster().block_rank());
  const int past = vectors_of<float>(cols);  // a vector past the end of the row: all -inf
  const int first = rank * slice, end = min(first + slice, past);
  const long long clusters = gridDim.x / blocks_per_row;
  const long long first_row = blockIdx.x / blocks_per_row;
  const auto fetch = [&](long long r) {  // the slice of row r into next_slice, by one thread
    if (kStaged && threadIdx.x == 0 && r < rows) {
      const unsigned bytes = static_cast<unsigned>(max(end - first, 0)) * 16u;
      course::hopper::arrive_and_expect_bytes(&slice_landed, bytes);
      if (bytes > 0) {
        course::hopper::copy_bulk_to_shared(next_slice, input + (r * cols + first * W), bytes,
                                            &slice_landed);
      }
    }
  };
  if (kStaged && threadIdx.x == 0) course::hopper::barrier_init(&slice_landed, 1);
  open_inbox(inbox);  // its fence and barrier publish slice_landed's initialisation too
  fetch(first_row);
  int turn = 0;  // rows this block has done
  for (long long r = first_row; r < rows; r += clusters, ++turn) {
    float x[kSlots * W];
    if constexpr (kStaged) {
      while (!course::hopper::phase_completed(&slice_landed, turn % 2)) {
      }
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        const int v = s * blockDim.x + threadIdx.x;  // in the slice
        unpack(v < end - first ? next_slice[v]
                               : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY),
               x + s * W);
      }
      __syncthreads();  // every thread has its vectors: the stage may take the next row's
      fetch(r + clusters);
    } else {
      const RowOf<const float> in = row_of(input, r, cols);
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        const int v = first + s * blockDim.x + threadIdx.x;
        ready_made::load_vector(in, v < end ? v : past, -INFINITY, x + s * W);
      }
    }
    softmax_of_slice<kSlots>(x, row_of(output, r, cols), first, end, inbox, turn);
  }
#endif
}

// How many clusters of `blocks` blocks of `threads` threads, each block with `stage_bytes` of
// dynamic shared memory, the current GPU runs at once (0: none; beyond 8 blocks only where it
// allows non-portable cluster sizes). Asked once per device, kernel and shape: launchers ask on
// every call.
template <typename Kernel>
int clusters_at_once(Kernel kernel, int most_stage_bytes, int blocks, int threads,
                     int stage_bytes) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, int, int, int>, int> known;
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), device, blocks, threads,
                                   stage_bytes);
  auto found = known.find(key);
  if (found == known.end()) {
    COURSE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    int clusters = 0;
    const cudaError_t allowed = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most_stage_bytes);
    if (allowed == cudaErrorInvalidValue) {
      (void)cudaGetLastError();  // more shared memory than a block may have here: no stage
    } else {
      COURSE_CHECK(allowed);
      cudaLaunchAttribute cluster = {};
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim = {static_cast<unsigned>(blocks), 1, 1};
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(static_cast<unsigned>(blocks));
      config.blockDim = dim3(static_cast<unsigned>(threads));
      config.dynamicSmemBytes = static_cast<std::size_t>(stage_bytes);
      config.attrs = &cluster;
      config.numAttrs = 1;
      const cudaError_t asked = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
      if (asked == cudaErrorInvalidClusterSize || asked == cudaErrorInvalidValue) {
        (void)cudaGetLastError();  // a shape the GPU refuses: it holds none
        clusters = 0;
      } else {
        COURSE_CHECK(asked);  // any other error is this program's, not the GPU's limit
      }
    }
    found = known.emplace(key, clusters).first;
  }
  return found->second;
}

// Rows in clusters of `blocks` blocks, as few threads a block (whole warps) as hold a slice in
// kSlots vectors each; false when that takes more than kMaxThreads threads, or the GPU holds no
// such cluster. Staged, only as many clusters as run at once (each copies its next row ahead, so
// each must have one); otherwise one row per cluster.
template <int kSlots, int kMaxThreads, bool kStaged>
bool launched(const float* input, float* output, long long rows, int cols, int blocks) {
  const int slice = static_cast<int>(course::ceil_div(vectors_of<float>(cols), blocks));
  const int threads = static_cast<int>(course::ceil_div(slice, kSlots * 32) * 32);
  if (threads > kMaxThreads) return false;
  const auto kernel = cluster_row_kernel<kSlots, kMaxThreads, kStaged>;
  constexpr int kMostStageBytes = kStaged ? kMaxThreads * kSlots * 16 : 0;
  const int stage_bytes = kStaged ? slice * 16 : 0;
  const int at_once = clusters_at_once(kernel, kMostStageBytes, blocks, threads, stage_bytes);
  if (at_once == 0) return false;
  cudaLaunchAttribute cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim = {static_cast<unsigned>(blocks), 1, 1};
  cudaLaunchConfig_t config = {};
  const long long clusters = std::min<long long>(rows, kStaged ? at_once : INT_MAX / blocks);
  config.gridDim = dim3(static_cast<unsigned>(clusters * blocks));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = static_cast<std::size_t>(stage_bytes);
  config.attrs = &cluster;
  config.numAttrs = 1;
  COURSE_CHECK(cudaLaunchKernelEx(&config, kernel, input, output, rows, cols, blocks, slice));
  return true;
}

}  // namespace

void step6_cluster_softmax(const float* input, float* output, long long rows, long long cols,
                           Workspace& workspace) {
  check_softmax_arguments("step6_cluster_softmax", input, output, rows, cols, kMaxClusterCols,
                          true);
  require_gpu_for_step(6);
  workspace.begin_call();
  const int n = static_cast<int>(cols);
  const auto done = [&] {
    COURSE_CHECK_LAUNCH("cluster_row_kernel");
    workspace.count_launch();
  };
  // Rows longer than 8 slices of kClusterSliceCols, whose rows all start on 16-byte boundaries
  // (cols a multiple of 4; the matrix's start is checked): staged, in clusters of 8.
  if (cols > static_cast<long long>(kClusterSliceCols) * kStagedBlocks &&
      cols % kWidth<float> == 0 &&
      launched<kStagedSlots, kStagedThreads, true>(input, output, rows, n, kStagedBlocks)) {
    return done();
  }
  // Otherwise as many blocks as keep a slice at most kClusterSliceCols columns: 16 at most, or 8
  // (with longer slices, up to 1024 threads) where the GPU holds no cluster of 16; and at least
  // 2, since st.async, which sends the pairs, wants a cluster of two blocks or more
  // (compute-sanitizer's memcheck: "Cluster needs to have at least 2 blocks").
  for (const int largest : {kMaxClusterBlocks, 8}) {
    const int blocks = static_cast<int>(std::clamp<long long>(
        course::ceil_div(cols, static_cast<long long>(kClusterSliceCols)), 2, largest));
    if (launched<kSliceSlots, 512, false>(input, output, rows, n, blocks) ||
        launched<kSliceSlots, 1024, false>(input, output, rows, n, blocks)) {
      return done();
    }
  }
  constexpr long long kMostBlockCols = 1024LL * kSliceSlots * kWidth<float>;  // 32K columns
  throw StepNeedsAnotherGpu("step 6 needs a cluster of " +
                            std::to_string(course::ceil_div(cols, kMostBlockCols)) +
                            " blocks of 1024 threads for rows of " + std::to_string(cols) +
                            " columns, more than this GPU holds; use step4_online_softmax");
}

}  // namespace softmax_and_norms::exercise
