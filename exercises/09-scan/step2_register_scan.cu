// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 09.2
// (or: meson test -C build --suite 09-scan:exercise --print-errorlogs)
// (generated from solutions/09-scan/ by python3 -m tools.sync_exercises)
// Step 2: more work per thread.
// Changed from step 1: a tile is kTileThreads threads x kItemsPerThread consecutive elements
// (3072), read and written as 16-byte vectors (load_tile, store_tile). Each thread scans its 24
// elements serially in registers (no barrier, no shared memory), so the block-wide part works on
// 128 thread totals instead of 3072 elements: a warp scan of the thread totals with shuffles
// (Kogge-Stone across 32 lanes, registers only), then one warp scans the 4 warp totals. The
// hierarchy and its 4n words of traffic stay: the gain is in instructions and barriers per
// element, which step 1 spends more of than the memory needs.
#include "scan.cuh"
#include "scan_device.cuh"

namespace scan::exercise {

// The inclusive scan of `value` across the 32 lanes of the warp: lane i gets the sum of lanes
// 0 to i. Every lane of the warp calls it.
template <typename T>
__device__ T warp_inclusive_scan(T value) {
  // TODO: Kogge-Stone across the warp, with distances 1, 2, 4, 8, 16: each lane adds the value
  //       that the lane `distance` places below it holds before this round, when there is such
  //       a lane. Read it from that lane's register (all 32 lanes take part).
  return value;
}

// The inclusive scan of a tile held blocked in registers (thread t: elements t * 24 to t * 24 +
// 23, in `items`): each item replaced by the sum of the tile's items up to it. Returns the
// tile's total, in every thread. Every thread of the block calls it; it ends with a barrier, so
// it may be called in a loop.
template <typename T>
__device__ T block_scan(T (&items)[kItemsPerThread]) {
  __shared__ T warp_totals[kWarps];
  T tile_total = T(0);
  // TODO: (1) each thread scans its own items, one after another, in registers; (2) the
  //       threads' totals are scanned across each warp (warp_inclusive_scan); (3) the last lane
  //       of each warp leaves its warp's total in warp_totals, and after a barrier one warp
  //       scans those in place; (4) after another barrier every thread adds, to each of its
  //       items, the sum of everything before its first item: the earlier warps' totals and the
  //       earlier lanes' totals of its own warp. Return the tile total; end with a barrier.
  return tile_total;
}

namespace {

// Scans each tile of `in` into `out` and writes the tile's total to sums[tile].
template <typename T>
__global__ void __launch_bounds__(kTileThreads) tile_scan_kernel(const T* in, T* out,
                                                                 std::size_t n, T* sums) {
  __shared__ TileStorage<T> storage;
  const std::size_t start = static_cast<std::size_t>(blockIdx.x) * kTileItems;
  const int valid = static_cast<int>(n - start < kTileItems ? n - start : kTileItems);
  T items[kItemsPerThread];
  load_tile(in + start, valid, items, storage);
  const T total = block_scan(items);
  store_tile(out + start, valid, items, storage);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

}  // namespace

template <typename T>
void step2_register_scan(const T* input, T* output, long long n, Workspace& workspace) {
  check_arguments("step2_register_scan", input, output, n, true);
  workspace.begin_call();
  using W = Word<T>;
  scan_in_levels(as_words(input), as_words(output), static_cast<std::size_t>(n), kTileItems,
                 workspace, 0, true, [](const W* in, W* out, std::size_t count, W* sums) {
                   const auto blocks = course::ceil_div(count, std::size_t{kTileItems});
                   tile_scan_kernel<W><<<static_cast<unsigned>(blocks), kTileThreads>>>(
                       in, out, count, sums);
                   COURSE_CHECK_LAUNCH("tile_scan_kernel");
                 });
}

SCAN_INSTANTIATE(step2_register_scan)

}  // namespace scan::exercise
