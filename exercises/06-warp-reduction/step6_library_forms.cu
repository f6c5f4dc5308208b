// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 06.6
// (or: meson test -C build --suite 06-warp-reduction:exercise --print-errorlogs)
// (generated from solutions/06-warp-reduction/ by python3 -m tools.sync_exercises)
// Step 6: the library forms of step 3, side by side.
// Cooperative groups name the threads that cooperate: cg::tiled_partition<32> splits the block
// into warps (thread_block_tile<32>), and cg::reduce(tile, value, cg::plus<T>()) is step 3's
// shuffle loop, giving every lane the tile's total. On sm_80 and newer it uses the redux.sync
// instruction for int: one instruction instead of five shuffles and adds.
// cub::BlockReduce is the block-level building block that CUB's own DeviceReduce is made of:
// warp reductions, one slot per warp, a barrier, and the final warp, tuned per architecture.
// Both kernels are step 5's (16-byte loads, one launch) with the block sum swapped: the same
// speed is the point. The library forms are what to write in real code; steps 1-5 are what
// they do.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cub/block/block_reduce.cuh>

#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::exercise {

namespace {

namespace cg = cooperative_groups;

// The block's total (in thread 0) with cooperative groups.
struct CooperativeGroupsBlockSum {
  template <typename T, unsigned BLOCK>
  __device__ T apply(T value) const {
    __shared__ T warp_sums[BLOCK / 32];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    // TODO: step 3's block_sum, written with cooperative groups (the `block` and `warp` groups
    //       above and their own reduction and barrier instead of shuffles and __syncthreads): the
    //       block's total must end up in the `value` of the thread the caller reads it from.
    return value;
  }
};

// The block's total (in thread 0) with CUB.
struct CubBlockSum {
  template <typename T, unsigned BLOCK>
  __device__ T apply(T value) const {
    using BlockReduce = cub::BlockReduce<T, BLOCK>;
    __shared__ typename BlockReduce::TempStorage storage;  // CUB's slots and scratch
    // TODO: the block's total with cub::BlockReduce (its storage is declared above), in the
    //       `value` of the thread the caller reads it from.
    return value;
  }
};

template <typename T, unsigned BLOCK, typename BlockSum>
__global__ void library_kernel(const T* input, std::size_t n, std::size_t head, T* block_sums,
                               unsigned* ticket, T* result) {
  const BlockSum block_sum;
  const T block_total =
      block_sum.template apply<T, BLOCK>(ready_made::vectorized_sum<T, BLOCK>(input, n, head));
  ready_made::finish_in_the_last_block<T, BLOCK>(block_total, block_sums, ticket, result,
                                                 block_sum);
}

template <typename BlockSum, typename T>
T one_launch(const char* step, const T* input, std::size_t n, int block_size,
             Workspace<T>& workspace) {
  check_arguments(step, input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    return reduce_in_one_launch<BLOCK>(library_kernel<T, BLOCK, BlockSum>, step, input, n,
                                       workspace);
  });
}

}  // namespace

template <typename T>
T step6_cooperative_groups(const T* input, std::size_t n, int block_size,
                           Workspace<T>& workspace) {
  return one_launch<CooperativeGroupsBlockSum>("step6_cooperative_groups", input, n, block_size,
                                               workspace);
}

template <typename T>
T step6_cub_block_reduce(const T* input, std::size_t n, int block_size, Workspace<T>& workspace) {
  return one_launch<CubBlockSum>("step6_cub_block_reduce", input, n, block_size, workspace);
}

WARP_REDUCTION_INSTANTIATE(step6_cooperative_groups)
WARP_REDUCTION_INSTANTIATE(step6_cub_block_reduce)

}  // namespace warp_reduction::exercise
