// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 05.4
// (or: meson test -C build --suite 05-reduction:exercise --print-errorlogs)
// (generated from solutions/05-reduction/ by python3 -m tools.sync_exercises)
// Kernel 4: first add during load.
// Changed from kernel 3: each block covers 2 * blockDim.x elements, and every thread loads
// two of them (blockDim.x apart, so both loads stay coalesced) and adds them before storing to
// shared memory. Half the blocks for the same n; no thread is idle in the first addition, and
// each thread has two loads in flight instead of one.
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::exercise {

namespace {

template <typename T>
__global__ void reduce4_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  // TODO (step 4): each block now covers a slice of twice as many elements as it has threads; every
  //       thread loads two elements of its block's slice (0 for any past n), adds them and stores
  //       the sum in sdata[tid], so that the tree below starts from half as many partial sums.
  //       Where block b's slice starts: ./course hint 05.4.
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce4_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  check_block_size("reduce4_pass", block_size);
  check_grid("reduce4_pass", n, block_size, 2);
  const unsigned blocks = course::ceil_div(n, 2 * static_cast<std::size_t>(block_size));
  reduce4_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce4_kernel");
}

REDUCTION_INSTANTIATE_PASS(reduce4_pass)

}  // namespace reduction::exercise
