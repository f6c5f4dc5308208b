// Step 1: one block scans its part in shared memory, and a hierarchy of launches joins the parts.
// Kogge-Stone: log2(BLOCK) rounds; in round d every thread adds the value d places to its left.
// All threads read and write in the same round, so a round reads one buffer and writes the
// other (or reads, waits at a barrier, then writes): one buffer and one barrier per round would
// let a thread overwrite a value that another thread has yet to read. n log n additions.
// Brent-Kung: an up-sweep builds partial sums in a tree (each level half the threads of the one
// before), then a down-sweep hands them down to the elements that lack them: about 2n additions,
// work-efficient, in twice as many rounds. Each thread holds two elements.
// The hierarchy (scan_in_levels, scan_device.cuh): every block scans its tile and writes its
// total; the totals are scanned the same way; each element then gets its tile's prefix added
// back. About 4n words of traffic: read and write in the scan, read and write in the add-back.
#include "scan.cuh"
#include "scan_device.cuh"

namespace scan::solution {

// Kogge-Stone: every thread's `value`, one per thread (blockDim.x of them), replaced by the sum
// of the values of threads 0 to threadIdx.x. `buffers` holds 2 * blockDim.x elements of shared
// memory. Every thread of the block calls it.
template <typename T>
__device__ T kogge_stone_scan(T value, T* buffers) {
  // BEGIN SOLUTION
  // TODO: the inclusive scan of the block's values, in rounds with distances 1, 2, 4, ... below
  //       blockDim.x: in each round a thread adds the value held that many threads to its left
  //       (if there is one). No thread may overwrite a value another thread has still to read
  //       in the same round, and no thread may read before the round's values are all written.
  const unsigned t = threadIdx.x, size = blockDim.x;
  T* from = buffers;
  T* to = buffers + size;
  from[t] = value;
  __syncthreads();
  for (unsigned distance = 1; distance < size; distance *= 2) {
    T sum = from[t];
    if (t >= distance) sum += from[t - distance];
    to[t] = sum;  // the other buffer: nobody reads it in this round
    __syncthreads();
    T* swap = from;
    from = to;
    to = swap;
  }
  value = from[t];
  // END SOLUTION
  return value;
}

// Brent-Kung: `data` holds 2 * blockDim.x elements in shared memory, loaded by the block;
// afterwards it holds their inclusive scan. Every thread of the block calls it.
template <typename T>
__device__ void brent_kung_scan(T* data) {
  // BEGIN SOLUTION
  // TODO: the inclusive scan of data[0 .. 2 * blockDim.x), in place. Up-sweep: with strides
  //       1, 2, 4, ..., the element at the end of each pair of neighbouring groups of `stride`
  //       elements adds the total of the group before it. Down-sweep: with the strides in the
  //       opposite order, each group total that the up-sweep left incomplete gets the total of
  //       everything before it. A barrier between levels; count the additions against
  //       Kogge-Stone's.
  const unsigned t = threadIdx.x, size = 2 * blockDim.x;
  for (unsigned stride = 1; stride < size; stride *= 2) {
    __syncthreads();  // the level below is complete
    const unsigned i = (t + 1) * 2 * stride - 1;
    if (i < size) data[i] += data[i - stride];
  }
  for (unsigned stride = size / 4; stride > 0; stride /= 2) {
    __syncthreads();
    const unsigned i = (t + 1) * 2 * stride - 1;
    if (i + stride < size) data[i + stride] += data[i];
  }
  __syncthreads();  // the scan is complete before anyone reads it
  // END SOLUTION
}

namespace {

template <typename T>
__global__ void kogge_stone_kernel(const T* input, T* output, std::size_t n, T* block_sums) {
  __shared__ T buffers[2 * kStep1Threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kStep1Threads + threadIdx.x;
  const T value = kogge_stone_scan(i < n ? input[i] : T(0), buffers);
  if (i < n) output[i] = value;
  if (threadIdx.x == kStep1Threads - 1) block_sums[blockIdx.x] = value;
}

template <typename T>
__global__ void brent_kung_kernel(const T* input, T* output, std::size_t n, T* block_sums) {
  __shared__ T data[2 * kStep1Threads];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * (2 * kStep1Threads);
  // Coalesced: the two loads (and stores) of a warp are each 32 consecutive elements.
  for (unsigned e = threadIdx.x; e < 2 * kStep1Threads; e += kStep1Threads) {
    data[e] = first + e < n ? input[first + e] : T(0);
  }
  brent_kung_scan(data);
  for (unsigned e = threadIdx.x; e < 2 * kStep1Threads; e += kStep1Threads) {
    if (first + e < n) output[first + e] = data[e];
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = data[2 * kStep1Threads - 1];
}

}  // namespace

template <typename T>
void step1_kogge_stone(const T* input, T* output, long long n, Workspace& workspace) {
  check_arguments("step1_kogge_stone", input, output, n, false);
  workspace.begin_call();
  using W = Word<T>;
  scan_in_levels(as_words(input), as_words(output), static_cast<std::size_t>(n), kStep1Threads,
                 workspace, 0, false,
                 [](const W* in, W* out, std::size_t count, W* sums) {
                   const auto blocks = course::ceil_div(count, std::size_t{kStep1Threads});
                   kogge_stone_kernel<W><<<static_cast<unsigned>(blocks), kStep1Threads>>>(
                       in, out, count, sums);
                   COURSE_CHECK_LAUNCH("kogge_stone_kernel");
                 });
}

template <typename T>
void step1_brent_kung(const T* input, T* output, long long n, Workspace& workspace) {
  check_arguments("step1_brent_kung", input, output, n, false);
  workspace.begin_call();
  using W = Word<T>;
  scan_in_levels(as_words(input), as_words(output), static_cast<std::size_t>(n),
                 2 * kStep1Threads, workspace, 0, false,
                 [](const W* in, W* out, std::size_t count, W* sums) {
                   const auto blocks = course::ceil_div(count, std::size_t{2 * kStep1Threads});
                   brent_kung_kernel<W><<<static_cast<unsigned>(blocks), kStep1Threads>>>(
                       in, out, count, sums);
                   COURSE_CHECK_LAUNCH("brent_kung_kernel");
                 });
}

SCAN_INSTANTIATE(step1_kogge_stone)
SCAN_INSTANTIATE(step1_brent_kung)

}  // namespace scan::solution
