// In-kernel cycle counting, as in the classic sum-of-squares tutorial: clock64() counts the
// cycles of the multiprocessor a block runs on. Clocks of different multiprocessors are not
// synchronised, so only differences within one block are meaningful.
#pragma once

namespace course {

// Call from EVERY thread of the block at the very end of a kernel (it contains a barrier, so
// no thread may have returned early): thread 0 stores the cycles since `start`, its own
// clock64() read at the top of the kernel, into block_cycles[blockIdx.x].
__device__ inline void record_block_cycles(long long start, unsigned long long* block_cycles) {
  __syncthreads();  // the block is done only when its slowest warp is
  if (threadIdx.x == 0) {
    block_cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - start);
  }
}

}  // namespace course
