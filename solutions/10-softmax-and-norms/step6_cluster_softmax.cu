// Step 6: a long row kept on chip across a thread block cluster (compute capability 9.0).
// Changed from steps 3 and 4: a row is cut into slices, one block each, and the blocks of a row
// are launched as one cluster: they run at the same time, on one GPC, and each can read the
// others' shared memory (distributed shared memory). Each block holds its slice in registers
// (step 3's vectors) and reduces it to one (max, sum) pair (step 4's rule); one thread publishes
// the pair in the block's shared memory; after a barrier of the whole cluster every block reads
// all the pairs at once (one per lane) and merges them the same way, so all get the row's max
// and sum; then each normalizes its slice from its registers, and waits at a second barrier of
// the cluster (arrived at when its reads were done) before its pair may go. The row is read
// once and written once: 2 words per element where step 4 moves 3, for rows of up to
// kMaxClusterCols columns. And a slice is short (kClusterSliceCols), so several blocks share an
// SM and one block's loads are in flight while another reduces: step 3's single block per
// 32K-column row leaves its SM idle meanwhile.
#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::solution {

// The row's (max, sum) pair, from `mine`, this block's pair: in every thread of every block of
// the cluster, the same pair. Every thread of every block of the cluster calls it. On return,
// this thread has arrived at the cluster's barrier and not waited there: it must call
// cg::this_cluster().barrier_wait() before this block publishes another pair or exits.
__device__ inline Partial merge_across_cluster(Partial mine) {
  Partial row = mine;
#if __CUDA_ARCH__ >= 900
  __shared__ Partial published;  // this block's pair, for the other blocks of the cluster to read
  // BEGIN SOLUTION
  // TODO (step 6): publish this block's pair in `published` (one thread writes it and releases
  //       it to the cluster), then merge the pairs of all the cluster's blocks, each read from
  //       that block's `published`, the same way in every thread (so that every block gets the
  //       same row pair). No block may read a pair before its block has published it. Then
  //       arrive at the cluster's barrier, releasing your reads: no block may overwrite its pair
  //       (the next row) or leave (its shared memory is gone then) while another may still read
  //       it, and the kernel waits for that before it does either.
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) {
    published = mine;
    release_to_cluster();  // the pair is visible to the cluster before this thread arrives
  }
  cluster_barrier();  // every block's pair is published before any block reads one
  // Each read crosses to another SM: issued one after another, 16 of them would cost 16 round
  // trips. Lane i reads block i's pair (a cluster has at most 32 blocks), all lanes at once,
  // and the warp's butterfly merges them. Its lanes may end a last bit apart (the compiler fuses
  // one of a merge's two products into an FMA, and which one follows the order of a and b): lane
  // 0's pair, the same computation on the same pairs in every warp of every block, is the row's.
  static_assert(kMaxClusterBlocks <= 32, "one lane per block of the cluster");
  const unsigned lane = threadIdx.x % 32;
  const Partial theirs = lane < cluster.num_blocks() ? *cluster.map_shared_rank(&published, lane)
                                                     : Partial{-INFINITY, 0.0f};
  const Partial merged = ready_made::warp_reduce(
      theirs, [](Partial a, Partial b) { return ready_made::merge_partials(a, b); });
  row = {__shfl_sync(kFullMask, merged.max, 0), __shfl_sync(kFullMask, merged.sum, 0)};
  // This thread's reads are done (the arrive releases them); the kernel waits before it
  // publishes again or exits, after its stores: the slowest block is waited for then, not now.
  cluster.barrier_arrive();
  // END SOLUTION
#endif
  return row;
}

namespace {

constexpr int kSliceSlots = 8;  // vectors per thread at most (a block of 1024 threads: 32K columns)

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900  // the kernel's code exists from 9.0 on
struct MergePartials {
  __device__ Partial operator()(Partial a, Partial b) const {
    return ready_made::merge_partials(a, b);
  }
};
#endif

// A cluster of `blocks_per_row` blocks per row; block `rank` of a cluster holds the vectors
// [rank * slice, (rank + 1) * slice) of its row, kSlots per thread (-inf past the slice).
// At most kMaxThreads threads: up to 512, 64 registers a thread leave room for 2 blocks per SM.
template <int kSlots, int kMaxThreads>
__global__ void __launch_bounds__(kMaxThreads, 1024 / kMaxThreads) cluster_row_kernel(
    const float* input, float* output, long long rows, int cols, int blocks_per_row, int slice) {
#if __CUDA_ARCH__ >= 900
  constexpr int W = kWidth<float>;
  const int rank = static_cast<int>(cg::this_cluster().block_rank());
  const int past = vectors_of<float>(cols);  // a vector past the end of the row: all -inf
  const int first = rank * slice, end = min(first + slice, past);
  const long long clusters = gridDim.x / blocks_per_row;
  for (long long r = blockIdx.x / blocks_per_row; r < rows; r += clusters) {
    const RowOf<const float> in = row_of(input, r, cols);
    const RowOf<float> out = row_of(output, r, cols);
    float x[kSlots * W];
    // BEGIN SOLUTION
    // TODO (step 6): load this thread's vectors of the block's slice into x, kSlots of them, as
    //       step 3's block did with a whole row (the block's threads take consecutive vectors,
    //       then the next blockDim.x; -inf past the slice), reduce them to this block's
    //       (max, sum) pair, get the row's pair from the whole cluster, store every vector of
    //       the slice as exp(x - the row's max) / the row's sum, and then wait at the cluster's
    //       barrier that merge_across_cluster arrived at.
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int v = first + s * blockDim.x + threadIdx.x;
      ready_made::load_vector(in, v < end ? v : past, -INFINITY, x + s * W);
    }
    // This thread's pair: its max, and its values replaced by exp(x - that max), summed.
    float max = -INFINITY;
#pragma unroll
    for (int i = 0; i < kSlots * W; ++i) max = fmaxf(max, x[i]);
    const float shift = shift_for(max);
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kSlots * W; ++i) {
      x[i] = __expf(x[i] - shift);
      sum += x[i];
    }
    const Partial block = ready_made::block_reduce(Partial{max, sum}, MergePartials{});
    const Partial row = merge_across_cluster(block);
    // exp(x - max) * exp(max - row max) = exp(x - row max); then 1 / the row's sum.
    const float rescale = __expf(shift - shift_for(row.max)) * scale_for(row.sum);
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int v = first + s * blockDim.x + threadIdx.x;
#pragma unroll
      for (int j = 0; j < W; ++j) x[s * W + j] *= rescale;
      if (v < end) ready_made::store_vector(out, v, x + s * W);
    }
    // Every block has read this block's pair (merge_across_cluster arrived after its reads):
    // only now may the pair be overwritten for the next row, or the block exit.
    cg::this_cluster().barrier_wait();
    // END SOLUTION
  }
#endif
}

// Whether the current GPU runs `kernel` in clusters of `blocks` blocks of `threads` threads
// (beyond 8 blocks only where it allows non-portable cluster sizes). Asked once per device,
// kernel and shape: launchers ask on every call.
template <typename Kernel>
bool holds_clusters(Kernel kernel, int blocks, int threads) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, int, int>, bool> known;
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), device, blocks, threads);
  auto found = known.find(key);
  if (found == known.end()) {
    COURSE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute cluster = {};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim = {static_cast<unsigned>(blocks), 1, 1};
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.attrs = &cluster;
    config.numAttrs = 1;
    int clusters = 0;
    const cudaError_t asked = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
    if (asked == cudaErrorInvalidClusterSize || asked == cudaErrorInvalidValue) {
      (void)cudaGetLastError();  // a cluster size the GPU refuses: it holds none
      clusters = 0;
    } else {
      COURSE_CHECK(asked);  // any other error is this program's, not the GPU's limit
    }
    found = known.emplace(key, clusters > 0).first;
  }
  return found->second;
}

// Rows in clusters of `blocks` blocks, as few threads a block as hold a slice in kSliceSlots
// vectors each (whole warps); false when that takes more than kMaxThreads threads, or the GPU
// holds no such cluster.
template <int kMaxThreads>
bool launched(const float* input, float* output, long long rows, int cols, int blocks) {
  const int slice = static_cast<int>(course::ceil_div(vectors_of<float>(cols), blocks));
  const int threads = static_cast<int>(course::ceil_div(slice, kSliceSlots * 32) * 32);
  const auto kernel = cluster_row_kernel<kSliceSlots, kMaxThreads>;
  if (threads > kMaxThreads || !holds_clusters(kernel, blocks, threads)) return false;
  cudaLaunchAttribute cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim = {static_cast<unsigned>(blocks), 1, 1};
  cudaLaunchConfig_t config = {};
  const long long clusters = std::min<long long>(rows, INT_MAX / blocks);  // each loops over rows
  config.gridDim = dim3(static_cast<unsigned>(clusters * blocks));
  config.blockDim = dim3(static_cast<unsigned>(threads));
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
  // As many blocks as keep a slice at most kClusterSliceCols columns: 16 at most, or 8 (with
  // longer slices, up to 1024 threads) where the GPU holds no cluster of 16.
  for (const int largest : {kMaxClusterBlocks, 8}) {
    const int blocks = static_cast<int>(std::min<long long>(
        course::ceil_div(cols, static_cast<long long>(kClusterSliceCols)), largest));
    if (launched<512>(input, output, rows, n, blocks) ||
        launched<1024>(input, output, rows, n, blocks)) {
      COURSE_CHECK_LAUNCH("cluster_row_kernel");
      workspace.count_launch();
      return;
    }
  }
  constexpr long long kMostBlockCols = 1024LL * kSliceSlots * kWidth<float>;  // 32K columns
  throw StepNeedsAnotherGpu("step 6 needs a cluster of " +
                            std::to_string(course::ceil_div(cols, kMostBlockCols)) +
                            " blocks of 1024 threads for rows of " + std::to_string(cols) +
                            " columns, more than this GPU holds; use step4_online_softmax");
}

}  // namespace softmax_and_norms::solution
