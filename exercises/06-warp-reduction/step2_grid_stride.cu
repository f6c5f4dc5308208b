// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 06.2
// (or: meson test -C build --suite 06-warp-reduction:exercise --print-errorlogs)
// (generated from solutions/06-warp-reduction/ by python3 -m tools.sync_exercises)
// Step 2: many elements per thread (the classic kernel 7).
// Changed from step 1: the grid no longer grows with n. It is sized from the GPU (as many
// blocks as the multiprocessors run at once, from the occupancy API), and each thread walks the
// input with a grid-stride loop, adding many elements in a register before the tree. Far fewer
// blocks, so the tree, the block-sum store and the block's start-up are paid far less often;
// and one pass leaves only a few thousand block sums, so a second pass with a single block
// finishes: two launches at any n, where step 1 needs one more per factor of 2 * BLOCK.
#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::exercise {

namespace {

template <typename T, unsigned BLOCK>
__global__ void grid_stride_kernel(const T* input, T* block_sums, std::size_t n) {
  __shared__ T sdata[BLOCK];
  T sum = T(0);
  // TODO: a grid-stride loop into `sum`: in each round a block adds 2 * BLOCK consecutive
  //       elements (each thread two, BLOCK apart, the second only if it exists), and the next
  //       round starts one whole grid's share further on, until n. Every index must stay right for
  //       n past 2^32.
  sdata[threadIdx.x] = sum;
  __syncthreads();
  ready_made::unrolled_tree<T, BLOCK>(sdata, sum);  // step 1's tree
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
T step2_grid_stride(const T* input, std::size_t n, int block_size, Workspace<T>& workspace) {
  check_arguments("step2_grid_stride", input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    const auto kernel = grid_stride_kernel<T, BLOCK>;
    return reduce_in_passes(
        input, n, workspace,
        [&](std::size_t count) {
          return grid_stride_blocks(reinterpret_cast<const void*>(kernel), BLOCK, count, 2 * BLOCK);
        },
        [&](const T* in, T* out, std::size_t count, std::size_t blocks) {
          kernel<<<static_cast<unsigned>(blocks), BLOCK>>>(in, out, count);
          COURSE_CHECK_LAUNCH("grid_stride_kernel");
        });
  });
}

WARP_REDUCTION_INSTANTIATE(step2_grid_stride)

}  // namespace warp_reduction::exercise
