// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 05.3
// (or: meson test -C build --suite 05-reduction:exercise --print-errorlogs)
// (generated from solutions/05-reduction/ by python3 -m tools.sync_exercises)
// Kernel 3: sequential addressing.
// Changed from kernel 2: the stride starts at blockDim.x / 2 and halves; thread tid adds
// sdata[tid + s] into sdata[tid]. A warp's 32 threads touch 32 consecutive words: one per
// bank, no conflicts.
// New problem: half the threads are idle from the very first level, and the first level is
// the one with the most work; each thread loads only one element from global memory.
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::exercise {

namespace {

template <typename T>
__global__ void reduce3_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  // TODO (step 3): reduce sdata to its sum in sdata[0] by sequential addressing: the first level
  //       folds the upper half of the block's slots onto the lower half, slot by slot, the next
  //       level the upper quarter onto the lower quarter, ... down to one slot; thread tid works on
  //       slot tid. No level may start before the one before it is complete.
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce3_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  check_block_size("reduce3_pass", block_size);
  check_grid("reduce3_pass", n, block_size, 1);
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  reduce3_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce3_kernel");
}

REDUCTION_INSTANTIATE_PASS(reduce3_pass)

}  // namespace reduction::exercise
