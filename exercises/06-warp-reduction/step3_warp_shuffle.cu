// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 06.3
// (or: meson test -C build --suite 06-warp-reduction:exercise --print-errorlogs)
// (generated from solutions/06-warp-reduction/ by python3 -m tools.sync_exercises)
// Step 3: warp shuffles.
// Changed from step 2: the last warp no longer goes through shared memory. __shfl_down_sync
// reads a register of another lane of the same warp directly: at offset 16, lane i gets lane
// i + 16's value; five rounds leave the warp's total in lane 0. A block then needs one shared
// slot per warp (not per thread) and a single __syncthreads(): each warp reduces its 32 values,
// lane 0 of each warp stores one value, and the first warp reduces those.
// The mask 0xffffffff names the lanes that take part: all 32 call the shuffle and all 32
// provide a value (lanes 16-31 provide the ones lanes 0-15 read). The *_sync functions
// synchronise exactly the lanes of the mask before the exchange, which is why the volatile
// pointer and the __syncwarp() pairs of chapter 05's last warp are not needed here: the data
// never passes through memory that another lane could read too early.
#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::exercise {

namespace {

// The warp's total, in lane 0 (the other lanes hold partial sums).
template <typename T>
__device__ T warp_sum(T value) {
  // TODO: the sum of the warp's 32 values in lane 0's `value`, in five levels (offsets 16, 8,
  //       4, 2, 1): at each level every lane adds the value of the lane `offset` places up, read
  //       straight from that lane's register: no shared memory, no barrier.
  return value;
}

// The block's total, in thread 0.
template <typename T, unsigned BLOCK>
__device__ T block_sum(T value) {
  __shared__ T warp_sums[BLOCK / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  value = warp_sum(value);
  // TODO: the block's total in thread 0's `value`: every warp's total (warp_sum) is kept in
  //       warp_sums, then the first warp adds the BLOCK / 32 totals with warp_sum() (lanes past
  //       them contribute 0). No warp may read warp_sums before every warp has stored its total.
  return value;
}

template <typename T, unsigned BLOCK>
__global__ void warp_shuffle_kernel(const T* input, T* block_sums, std::size_t n) {
  const T total = block_sum<T, BLOCK>(ready_made::grid_stride_sum<T, BLOCK>(input, n));
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

}  // namespace

template <typename T>
T step3_warp_shuffle(const T* input, std::size_t n, int block_size, Workspace<T>& workspace) {
  check_arguments("step3_warp_shuffle", input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    const auto kernel = warp_shuffle_kernel<T, BLOCK>;
    return reduce_in_passes(
        input, n, workspace,
        [&](std::size_t count) {
          return grid_stride_blocks(reinterpret_cast<const void*>(kernel), BLOCK, count, 2 * BLOCK);
        },
        [&](const T* in, T* out, std::size_t count, std::size_t blocks) {
          kernel<<<static_cast<unsigned>(blocks), BLOCK>>>(in, out, count);
          COURSE_CHECK_LAUNCH("warp_shuffle_kernel");
        });
  });
}

WARP_REDUCTION_INSTANTIATE(step3_warp_shuffle)

}  // namespace warp_reduction::exercise
