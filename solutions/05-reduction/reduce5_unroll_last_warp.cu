// Kernel 5: unroll the last warp.
// Changed from kernel 4: once only 32 threads are active (s <= 32) they are one warp, and the
// last six levels need no __syncthreads() for the whole block. They still need the warp to
// agree on what it has read and written: since Volta, the threads of a warp are scheduled
// independently and are NOT guaranteed to run in lockstep. The classic code relied on lockstep
// and `volatile` alone: on Volta and newer that is a data race (a thread can read
// sdata[tid + 16] before the thread that owns it has added into it). The safe form below reads
// into a register, __syncwarp(), writes, __syncwarp(): every level completes for the whole warp
// before the next begins. (Warp shuffles, __shfl_down_sync, do the same without shared memory.)
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::solution {

namespace {

// The last 64 -> 1 elements of a block, by its first warp (tid < 32).
template <typename T>
__device__ void warp_reduce(T* sdata, unsigned tid) {
  // BEGIN SOLUTION
  // TODO (step 5): the last six levels (offsets 32, 16, 8, 4, 2, 1) of the tree into sdata[tid], by
  //       the first warp alone and without a block barrier. Every lane must have read a slot before
  //       its owner overwrites it, and every write must be seen by the next level: what guarantees
  //       both inside a warp is this step's lesson (the header; ./course hint 05.5).
  T sum = sdata[tid];
#pragma unroll
  for (unsigned offset = 32; offset > 0; offset >>= 1) {
    sum += sdata[tid + offset];
    __syncwarp();  // every lane has read before any lane overwrites
    sdata[tid] = sum;
    __syncwarp();  // every lane has written before the next level reads
  }
  // END SOLUTION
}

template <typename T>
__global__ void reduce5_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * blockDim.x) + tid;
  T sum = i < n ? input[i] : T(0);
  if (i + blockDim.x < n) sum += input[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  // BEGIN SOLUTION
  // TODO (step 5): the tree of kernel 4, but only while s > 32; then the first warp finishes with
  //       warp_reduce().
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(sdata, tid);
  // END SOLUTION
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce5_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  check_block_size("reduce5_pass", block_size);
  check_grid("reduce5_pass", n, block_size, 2);
  const unsigned blocks = course::ceil_div(n, 2 * static_cast<std::size_t>(block_size));
  reduce5_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce5_kernel");
}

REDUCTION_INSTANTIATE_PASS(reduce5_pass)

}  // namespace reduction::solution
