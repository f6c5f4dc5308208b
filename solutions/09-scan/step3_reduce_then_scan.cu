// Step 3: reduce, then scan.
// Changed from step 2: the output is written once. Pass 1 only reads: each block adds up its
// share of the tiles (no output). A single block then scans the block totals. Pass 2 reads the
// input again and scans each block's tiles, starting from the sum of everything before the
// block, and writes the output. Traffic: n words read, n read again, n written: 3n against
// step 2's 4n, and against the 2n that a scan cannot go below (read once, write once). So a
// reduce-then-scan tops out at 2/3 of a one-pass scan's speed.
// A block handles several consecutive tiles (one after another, the running prefix in a
// register), so that the block totals are at most kMaxReduceBlocks: one tile's scan covers them.
#include "scan.cuh"
#include "scan_device.cuh"
#include "scan_ready_made.cuh"

namespace scan::solution {

namespace {

// Pass 1: block_sums[blockIdx.x] = the sum of the block's tiles, tiles [blockIdx.x *
// tiles_per_block, (blockIdx.x + 1) * tiles_per_block) of the input (the last ones may be
// partial or missing).
template <typename T>
__global__ void __launch_bounds__(kTileThreads) reduce_kernel(const T* input, std::size_t n,
                                                              std::size_t tiles_per_block,
                                                              T* block_sums) {
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * tiles_per_block * kTileItems;
  const std::size_t end = first + tiles_per_block * kTileItems < n
                              ? first + tiles_per_block * kTileItems
                              : n;
  // BEGIN SOLUTION
  // TODO (step 3): the sum of input[first, end), in block_sums[blockIdx.x]. Each tile of
  //       kTileItems elements (the last may hold fewer) is read once with 16-byte loads
  //       (striped_sum gives a thread's part of one tile), the threads' sums then added up
  //       across the block (block_sum).
  T sum = T(0);
  for (std::size_t start = first; start < end; start += kTileItems) {
    const std::size_t left = end - start;
    sum += striped_sum(input + start, left < kTileItems ? static_cast<int>(left) : kTileItems);
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
  // END SOLUTION
}

// Between the passes: one block scans the `count` (at most kTileItems) block totals in place.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) scan_block_sums_kernel(T* sums, int count) {
  __shared__ TileStorage<T> storage;
  T items[kItemsPerThread];
  load_tile(sums, count, items, storage);
  ready_made::block_scan(items);
  store_tile(sums, count, items, storage);
}

// Pass 2: scans the block's tiles (as pass 1 divided them) into the output, each starting from
// the sum of everything before it. `scanned` is the inclusive scan of the block totals.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) scan_with_prefix_kernel(
    const T* input, T* output, std::size_t n, std::size_t tiles_per_block, const T* scanned) {
  __shared__ TileStorage<T> storage;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * tiles_per_block * kTileItems;
  const std::size_t end = first + tiles_per_block * kTileItems < n
                              ? first + tiles_per_block * kTileItems
                              : n;
  T items[kItemsPerThread];
  // BEGIN SOLUTION
  // TODO (step 3): output[first, end) = the inclusive scan of the whole input, there. The
  //       running prefix starts as the sum of every element before `first` (read it from
  //       `scanned`), then, tile by tile: load the tile's elements (only those that exist),
  //       scan them (ready_made::block_scan), add the prefix, store them, and add the tile's
  //       total to the prefix.
  T prefix = blockIdx.x > 0 ? scanned[blockIdx.x - 1] : T(0);
  for (std::size_t start = first; start < end; start += kTileItems) {
    const std::size_t left = end - start;
    const int valid = left < kTileItems ? static_cast<int>(left) : kTileItems;
    load_tile(input + start, valid, items, storage);
    const T total = ready_made::block_scan(items);
#pragma unroll
    for (int k = 0; k < kItemsPerThread; ++k) items[k] += prefix;
    store_tile(output + start, valid, items, storage);
    prefix += total;
  }
  // END SOLUTION
}

}  // namespace

template <typename T>
void step3_reduce_then_scan(const T* input, T* output, long long n, Workspace& workspace) {
  check_arguments("step3_reduce_then_scan", input, output, n, true);
  workspace.begin_call();
  if (n == 0) return;
  using W = Word<T>;
  const std::size_t count = static_cast<std::size_t>(n);
  const std::size_t tiles = course::ceil_div(count, std::size_t{kTileItems});
  const std::size_t tiles_per_block = course::ceil_div(tiles, std::size_t{kMaxReduceBlocks});
  const unsigned blocks = static_cast<unsigned>(course::ceil_div(tiles, tiles_per_block));
  W* sums = static_cast<W*>(workspace.sums(0, blocks));
  reduce_kernel<W><<<blocks, kTileThreads>>>(as_words(input), count, tiles_per_block, sums);
  COURSE_CHECK_LAUNCH("reduce_kernel");
  workspace.count_launch();
  scan_block_sums_kernel<W><<<1, kTileThreads>>>(sums, static_cast<int>(blocks));
  COURSE_CHECK_LAUNCH("scan_block_sums_kernel");
  workspace.count_launch();
  scan_with_prefix_kernel<W><<<blocks, kTileThreads>>>(as_words(input), as_words(output), count,
                                                      tiles_per_block, sums);
  COURSE_CHECK_LAUNCH("scan_with_prefix_kernel");
  workspace.count_launch();
}

SCAN_INSTANTIATE(step3_reduce_then_scan)

}  // namespace scan::solution
