// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 06.1
// (or: meson test -C build --suite 06-warp-reduction:exercise --print-errorlogs)
// (generated from solutions/06-warp-reduction/ by python3 -m tools.sync_exercises)
// Step 1: complete unrolling (the classic kernel 6).
// Changed from chapter 05's kernel 5: the block size is a template parameter, BLOCK, so every
// bound of the tree is known at compile time. The `for` loop over the levels becomes a straight
// run of `if (BLOCK >= 512) ...` that the compiler evaluates away: no loop counter, no compare
// and branch per level, no `s >>= 1`. The kernel had become limited by those instructions, not
// by memory; now each level is just a load, an add and a store. The host picks the
// instantiation from the run-time block size (with_block_size in warp_reduction.cuh).
#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::exercise {

namespace {

template <typename T, unsigned BLOCK>
__global__ void complete_unroll_kernel(const T* input, T* block_sums, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  // First add during load, as in chapter 05's kernels 4 and 5: 2 * BLOCK elements per block.
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BLOCK) + tid;
  T sum = i < n ? input[i] : T(0);
  if (i + BLOCK < n) sum += input[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  // TODO: chapter 05's tree (kernel 5) with every level written out, for the BLOCK this kernel
  //       is compiled for: the block-wide levels that exist for this BLOCK (at most 1024 slots
  //       down to 64), each followed by a block barrier, then the first warp's six levels as in
  //       kernel 5. Keep the running sum in `sum` as well as in sdata. No loop: whether a level
  //       exists must be known to the compiler, not tested while the kernel runs.
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
T step1_complete_unroll(const T* input, std::size_t n, int block_size, Workspace<T>& workspace) {
  check_arguments("step1_complete_unroll", input, n, block_size);
  check_grid("step1_complete_unroll", n, 2 * static_cast<std::size_t>(block_size));
  const std::size_t per_block = 2 * static_cast<std::size_t>(block_size);
  return reduce_in_passes(
      input, n, workspace, [&](std::size_t count) { return course::ceil_div(count, per_block); },
      [&](const T* in, T* out, std::size_t count, std::size_t blocks) {
        with_block_size(block_size, [&](auto block) {
          constexpr unsigned BLOCK = decltype(block)::value;
          complete_unroll_kernel<T, BLOCK><<<static_cast<unsigned>(blocks), BLOCK>>>(in, out, count);
        });
        COURSE_CHECK_LAUNCH("complete_unroll_kernel");
      });
}

WARP_REDUCTION_INSTANTIATE(step1_complete_unroll)

}  // namespace warp_reduction::exercise
