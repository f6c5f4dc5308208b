// ALTERNATIVE 10.2 step2_block_per_row.cu
// Cooperative groups: the warp is a thread_block_tile<32> whose shfl_xor moves the values, the
// block's barrier is block.sync(), and the warps' values are combined by thread 0 alone, which
// leaves the block's result in slot 0 for every thread (one thread combines the slots, at the cost
// of one more barrier). The fused kernel counts its columns with a running index.
// @top
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// @region
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (int lanes = 1; lanes < 32; lanes *= 2) value = op(value, warp.shfl_xor(value, lanes));
// @region
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const T reduced = warp_reduce(value, op);
  if (tile.thread_rank() == 0) warp_results[tile.meta_group_rank()] = reduced;
  block.sync();  // all warps' values are in place
  if (block.thread_rank() == 0) {
    T total = warp_results[0];
    for (unsigned w = 1; w < tile.meta_group_size(); ++w) total = op(total, warp_results[w]);
    warp_results[0] = total;
  }
  block.sync();  // slot 0 holds the block's result
  result = warp_results[0];
  block.sync();  // read by all before a next call writes the slots
// @region
  float largest = x[0];
  for (int i = 1; i < N; ++i) largest = fmaxf(largest, x[i]);
  float row_max;
  if constexpr (kWholeBlock) row_max = block_reduce(largest, Max{});
  else row_max = warp_reduce(largest, Max{});
  float total = 0.0f;
  for (int i = 0; i < N; ++i) {
    const float e = __expf(x[i] - shift_for(row_max));
    x[i] = e;
    total += e;
  }
  if constexpr (kWholeBlock) total = block_reduce(total, Sum{});
  else total = warp_reduce(total, Sum{});
  const float inverse = scale_for(total);
  for (int i = 0; i < N; ++i) x[i] = x[i] * inverse;
// @region
    int c = threadIdx.x;
    for (int i = 0; i < kItems; ++i, c += blockDim.x) x[i] = c < cols ? in[c] : -INFINITY;
    softmax_in_registers<true>(x);
    c = threadIdx.x;
    for (int i = 0; i < kItems && c < cols; ++i, c += blockDim.x) out[c] = x[i];
