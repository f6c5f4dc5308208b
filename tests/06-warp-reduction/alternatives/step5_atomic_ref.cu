// ALTERNATIVE 06.5 step5_one_launch.cu
// The ticket through cuda::atomic_ref at device scope with acq_rel: its release half publishes
// the block total before the ticket, its acquire half lets the last block see every total; no
// __threadfence(), and no special case for one block (its own ticket is the last).
// @top
#include <cuda/atomic>
// @region
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = block_total;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*ticket);
    is_last = counter.fetch_add(1u, cuda::memory_order_acq_rel) + 1 == gridDim.x;
  }
  __syncthreads();  // is_last, and through thread 0's acquire the other totals, for the block
  if (!is_last) return;  // the same for the whole block: no thread skips a barrier alone
  T total = T(0);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) total += __ldcg(&block_sums[b]);
  total = ready_made::block_sum<T, BLOCK>(total);
  if (threadIdx.x == 0) {
    *result = total;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).store(
        0u, cuda::memory_order_relaxed);  // the launch's end orders it before the next launch
  }
