// Kernel 2: interleaved addressing, contiguous threads.
// Changed from kernel 1: thread tid works on index = 2 * s * tid, so the active threads are
// the first ones of the block: whole warps are active or idle, no divergence inside a warp
// (until fewer than 32 threads are left).
// New problem: shared-memory bank conflicts. At stride s the threads of a warp access words
// 2s apart; with 4-byte elements in 32 banks of 4 bytes, 2s-apart words fall into 32/(2s)
// banks only, so the accesses are serialised 2s-way (up to 32-way). 8-byte doubles span two
// banks each: the same pattern conflicts twice as much per element.
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::solution {

namespace {

template <typename T>
__global__ void reduce2_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  // BEGIN SOLUTION
  // TODO (step 2): the same levels and the same pairs as kernel 1, but each level's adds are done
  //       by the block's FIRST threads, one pair each in order (thread tid takes the level's pair
  //       number tid), so that the working threads are contiguous. No level may start before the
  //       one before it is complete.
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  // END SOLUTION
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce2_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  check_block_size("reduce2_pass", block_size);
  check_grid("reduce2_pass", n, block_size, 1);
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  reduce2_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce2_kernel");
}

REDUCTION_INSTANTIATE_PASS(reduce2_pass)

}  // namespace reduction::solution
