// ALTERNATIVE 06.3 step3_warp_shuffle.cu
// Cooperative groups: cg::reduce over a cg::tiled_partition<32> of the block (redux.sync for
// ints on sm_80 and newer, butterfly shuffles otherwise), and the tile's own ranks for the lane,
// the warp and the number of warps.
// @top
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
// @region
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  value = cg::reduce(tile, value, cg::plus<T>());  // every lane of the tile gets the total
// @region
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = value;
  block.sync();  // every tile's total is stored before tile 0 reads them
  if (tile.meta_group_rank() == 0) {
    const unsigned rank = tile.thread_rank();
    value = warp_sum(rank < tile.meta_group_size() ? warp_sums[rank] : T(0));
  }
