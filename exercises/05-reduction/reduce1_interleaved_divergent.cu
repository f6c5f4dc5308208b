// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 05.1
// (or: meson test -C build --suite 05-reduction:exercise --print-errorlogs)
// (generated from solutions/05-reduction/ by python3 -m tools.sync_exercises)
// Kernel 1: interleaved addressing with divergent branching.
// Each block copies its blockDim.x elements to shared memory and adds them as a tree: at
// stride s, thread tid adds sdata[tid + s] into sdata[tid] if tid is a multiple of 2s.
// Problem: `tid % (2 * s) == 0` selects every 2nd, 4th, 8th... thread, so every warp has a few
// active threads and many idle ones (divergence), and % is a slow instruction.
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::exercise {

namespace {

template <typename T>
__global__ void reduce1_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  // The bounds test is on the GLOBAL index i: the last block may be partial. Missing elements
  // count as 0, the identity of the sum.
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  // TODO (step 1): reduce the block's values in sdata to their sum in sdata[0] by interleaved
  //       addressing: level after level, pairs of slots twice as far apart as in the level before
  //       (1, 2, 4, ... apart) are added into the lower slot of each pair, by the thread whose
  //       tid is that slot. No level may start before the one before it is complete.
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce1_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  check_block_size("reduce1_pass", block_size);
  check_grid("reduce1_pass", n, block_size, 1);
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  reduce1_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce1_kernel");
}

REDUCTION_INSTANTIATE_PASS(reduce1_pass)

}  // namespace reduction::exercise
