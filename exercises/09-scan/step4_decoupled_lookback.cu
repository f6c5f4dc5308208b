// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 09.4
// (or: meson test -C build --suite 09-scan:exercise --print-errorlogs)
// (generated from solutions/09-scan/ by python3 -m tools.sync_exercises)
// Step 4: one pass, with decoupled look-back (Merrill and Garland, 2016).
// Changed from step 3: the input is read once. Each block takes the next tile number from a
// counter, loads and scans its tile, and publishes the tile's total in the tile's status word
// (flag "aggregate"). To learn the sum of everything before its tile it looks back: a warp reads
// the status words of the 32 tiles before it at once, and adds aggregates until it meets a tile
// whose flag says "prefix" (the sum of everything up to that tile), moving the window back while
// there is none. It then publishes its own inclusive prefix (flag "prefix"), so that later
// tiles stop there, adds the prefix to its items and stores them. Traffic: 2n words, the floor.
// Why a counter and not blockIdx.x: CUDA promises no order in which blocks start, and a block
// that waits for a tile whose block has not started, while holding the place that block needs,
// waits forever. Numbers taken from a counter when a block has started are safe by construction:
// every smaller number belongs to a block that is already running.
// Why one 64-bit word, written and read with strong GPU-scope accesses: a reader who sees the
// flag must see the value stored with it (two separate stores may be seen in either order), and
// a weak load may be served from this SM's L1 or hoisted out of a loop by the compiler.
#include "scan.cuh"
#include "scan_device.cuh"
#include "scan_ready_made.cuh"

namespace scan::exercise {

namespace {

template <typename T>
__global__ void __launch_bounds__(kTileThreads) lookback_kernel(const T* input, T* output,
                                                                std::size_t n,
                                                                LookbackState state,
                                                                Watchdog watchdog) {
  __shared__ TileStorage<T> storage;
  __shared__ unsigned tile_number;
  __shared__ T tile_prefix;  // the sum of every element before this tile
  // TODO (step 4): the number of the tile this block scans, in tile_number for the whole block:
  //       tiles must be handed out in the order in which blocks start running, whatever their
  //       blockIdx.x (*state.counter is 0 when the launch starts).
  const unsigned tile = tile_number;
  if (tile >= gridDim.x) return;  // a counter that was not reset: no tile is left for us
  const std::size_t start = static_cast<std::size_t>(tile) * kTileItems;
  const int valid = static_cast<int>(n - start < kTileItems ? n - start : kTileItems);
  T items[kItemsPerThread];
  load_tile(input + start, valid, items, storage);
  const T aggregate = ready_made::block_scan(items);
  StatusWord* status = state.status;
  // TODO (step 4): the sum of every tile before this one, in tile_prefix for the whole block.
  //       Tile 0 publishes its inclusive prefix (its aggregate) at once. Any other tile
  //       publishes its aggregate, then the first warp looks back over a window of 32 earlier
  //       tiles at a time, each lane waiting for one status word (wait_for_status), and adds
  //       the aggregates from the nearest "prefix" down, moving the window back while no lane
  //       holds a prefix; then it publishes its own inclusive prefix. A status word is written
  //       as one 64-bit word (pack_status) with a strong GPU-scope store: a flag and its value
  //       must never be seen apart.
  const T prefix = tile_prefix;
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) items[k] += prefix;
  store_tile(output + start, valid, items, storage);
}

}  // namespace

template <typename T>
void step4_decoupled_lookback(const T* input, T* output, long long n, Workspace& workspace) {
  check_arguments("step4_decoupled_lookback", input, output, n, true);
  workspace.begin_call();
  if (n == 0) return;
  const std::size_t tiles = course::ceil_div(static_cast<std::size_t>(n), std::size_t{kTileItems});
  const LookbackState state = workspace.lookback(tiles);
  // TODO (step 4): the launch below must find the tile counter at 0 and every status word at
  //       "nothing yet" (0), whatever an earlier call left in this workspace; in stream order,
  //       without waiting for the GPU.
  lookback_kernel<Word<T>><<<static_cast<unsigned>(tiles), kTileThreads>>>(
      as_words(input), as_words(output), static_cast<std::size_t>(n), state, arm_watchdog());
  COURSE_CHECK_LAUNCH("lookback_kernel");
  workspace.count_launch();
}

SCAN_INSTANTIATE(step4_decoupled_lookback)

}  // namespace scan::exercise
