// ALTERNATIVE 09.2 step2_register_scan.cu
// Cooperative groups: the warp scan is cg::inclusive_scan over a tiled_partition<32> of the block
// (the library's shuffles), and the block part uses the tile's own ranks and its shfl_up.
// @top
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
// @region
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  value = cg::inclusive_scan(warp, value, cg::plus<T>());
// @region
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  for (int k = 1; k < kItemsPerThread; ++k) items[k] = items[k] + items[k - 1];
  const T mine = items[kItemsPerThread - 1];
  const T inclusive = cg::inclusive_scan(tile, mine, cg::plus<T>());
  T before = tile.shfl_up(inclusive, 1);  // what the lanes below this one hold
  if (tile.thread_rank() == 0) before = T(0);
  if (tile.thread_rank() == 31) warp_totals[tile.meta_group_rank()] = inclusive;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const unsigned rank = tile.thread_rank();
    const T scanned = cg::inclusive_scan(tile, rank < kWarps ? warp_totals[rank] : T(0),
                                         cg::plus<T>());
    if (rank < kWarps) warp_totals[rank] = scanned;
  }
  block.sync();
  if (tile.meta_group_rank() > 0) before += warp_totals[tile.meta_group_rank() - 1];
  for (int k = 0; k < kItemsPerThread; ++k) items[k] += before;
  tile_total = warp_totals[kWarps - 1];
  block.sync();
