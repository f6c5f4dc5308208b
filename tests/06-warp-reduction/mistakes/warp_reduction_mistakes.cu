// The classic mistakes of chapter 06 (see mistakes.hpp). Each kernel is the solution's with one
// change, marked BUG.
#include "mistakes.hpp"
#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::mistakes {

namespace {

// ---- step 1: the volatile last warp -------------------------------------------------------
template <typename T>
__device__ void volatile_last_warp(volatile T* sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];  // BUG: nothing makes lane tid + 16 finish its add before
  sdata[tid] += sdata[tid + 16];  //      lane tid reads its slot
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

template <typename T, unsigned BLOCK>
__global__ void volatile_last_warp_kernel(const T* input, T* block_sums, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BLOCK) + tid;
  T sum = i < n ? input[i] : T(0);
  if (i + BLOCK < n) sum += input[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 32; s /= 2) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) volatile_last_warp(sdata, tid);
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

// ---- step 3: the last stage with a mask of only the lanes that hold a warp total -----------
template <typename T>
__device__ T masked_warp_sum(T value, unsigned mask) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(mask, value, offset);  // reads lane + offset, inside the mask?
  }
  return value;
}

template <typename T, unsigned BLOCK>
__global__ void partial_mask_kernel(const T* input, T* block_sums, std::size_t n) {
  __shared__ T warp_sums[BLOCK / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T value = ready_made::warp_sum(ready_made::grid_stride_sum<T, BLOCK>(input, n));
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  constexpr unsigned kWarps = BLOCK / 32;
  constexpr unsigned kMask = kWarps == 32 ? 0xffffffffu : (1u << kWarps) - 1;
  if (warp == 0 && lane < kWarps) {  // BUG: only the lanes holding a total take part, with
    value = masked_warp_sum(warp_sums[lane], kMask);  // their mask; lane 0 still reads lane 16
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = value;
}

// ---- step 4: vectors past the end -----------------------------------------------------------
// The first `valid` elements of a vector.
__device__ inline int first_elements_sum(const int4& v, int valid) {
  return v.x + (valid > 1 ? v.y : 0) + (valid > 2 ? v.z : 0) + (valid > 3 ? v.w : 0);
}
__device__ inline float first_elements_sum(const float4& v, int valid) {
  return v.x + (valid > 1 ? v.y : 0.0f) + (valid > 2 ? v.z : 0.0f) + (valid > 3 ? v.w : 0.0f);
}
__device__ inline double first_elements_sum(const double2& v, int valid) {
  return v.x + (valid > 1 ? v.y : 0.0);
}

template <typename T, unsigned BLOCK, bool MASKED>
__global__ void vector_past_tail_kernel(const T* input, T* block_sums, std::size_t n,
                                        std::size_t head) {
  using Vector = typename Vector16<T>::type;
  constexpr int kWidth = Vector16<T>::width;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * BLOCK;
  const std::size_t vectors = (n - head + kWidth - 1) / kWidth;  // BUG: rounded up, no tail
  T sum = thread < head ? input[thread] : T(0);
  const Vector* vector = reinterpret_cast<const Vector*>(input + head);
  for (std::size_t i = thread; i < vectors; i += threads) {
    const Vector loaded = vector[i];  // the last one reaches past n
    const std::size_t valid = n - head - i * kWidth;
    sum += MASKED ? first_elements_sum(loaded, valid < kWidth ? int(valid) : kWidth)
                  : component_sum(loaded);
  }
  const T total = ready_made::block_sum<T, BLOCK>(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

// ---- step 5: no fence before the ticket ------------------------------------------------------
template <typename T, unsigned BLOCK>
__global__ void missing_threadfence_kernel(const T* input, std::size_t n, std::size_t head,
                                           T* block_sums, unsigned* ticket, T* result) {
  const T block_total =
      ready_made::block_sum<T, BLOCK>(ready_made::vectorized_sum<T, BLOCK>(input, n, head));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = block_total;  // BUG: no __threadfence() before the ticket
    const bool last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    if (last) __threadfence();
    is_last = last;
  }
  __syncthreads();
  if (is_last) {
    T total = T(0);
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) total += __ldcg(block_sums + b);
    total = ready_made::block_sum<T, BLOCK>(total);
    if (threadIdx.x == 0) {
      *result = total;
      *ticket = 0;
    }
  }
}

// ---- step 5: a fence that reaches only the block -----------------------------------------
template <typename T, unsigned BLOCK>
__global__ void block_scope_fence_kernel(const T* input, std::size_t n, std::size_t head,
                                         T* block_sums, unsigned* ticket, T* result) {
  const T block_total =
      ready_made::block_sum<T, BLOCK>(ready_made::vectorized_sum<T, BLOCK>(input, n, head));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = block_total;
    __threadfence_block();  // BUG: orders the store for this block's threads, not the others'
    const bool last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    if (last) __threadfence();
    is_last = last;
  }
  __syncthreads();
  if (is_last) {
    T total = T(0);
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) total += __ldcg(block_sums + b);
    total = ready_made::block_sum<T, BLOCK>(total);
    if (threadIdx.x == 0) {
      *result = total;
      *ticket = 0;
    }
  }
}

// The launchers of the solution, around the kernels above.
template <typename T, typename Launch>
T in_passes(const T* input, std::size_t n, int block_size, Workspace<T>& workspace,
            std::size_t per_thread, bool grid_stride, Launch&& launch) {
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    return reduce_in_passes(
        input, n, workspace,
        [&](std::size_t count) {
          return grid_stride ? grid_stride_blocks(launch.template kernel<T, BLOCK>(), BLOCK, count,
                                                  BLOCK * per_thread)
                             : course::ceil_div(count, BLOCK * per_thread);
        },
        [&](const T* in, T* out, std::size_t count, std::size_t blocks) {
          launch.template run<T, BLOCK>(in, out, count, static_cast<unsigned>(blocks));
          COURSE_CHECK_LAUNCH("warp reduction mistake");
        });
  });
}

struct VolatileLastWarp {
  template <typename T, unsigned BLOCK>
  const void* kernel() const { return reinterpret_cast<const void*>(volatile_last_warp_kernel<T, BLOCK>); }
  template <typename T, unsigned BLOCK>
  void run(const T* in, T* out, std::size_t count, unsigned blocks) const {
    volatile_last_warp_kernel<T, BLOCK><<<blocks, BLOCK>>>(in, out, count);
  }
};

struct PartialMask {
  template <typename T, unsigned BLOCK>
  const void* kernel() const { return reinterpret_cast<const void*>(partial_mask_kernel<T, BLOCK>); }
  template <typename T, unsigned BLOCK>
  void run(const T* in, T* out, std::size_t count, unsigned blocks) const {
    partial_mask_kernel<T, BLOCK><<<blocks, BLOCK>>>(in, out, count);
  }
};

template <bool MASKED>
struct VectorPastTail {
  template <typename T, unsigned BLOCK>
  const void* kernel() const {
    return reinterpret_cast<const void*>(vector_past_tail_kernel<T, BLOCK, MASKED>);
  }
  template <typename T, unsigned BLOCK>
  void run(const T* in, T* out, std::size_t count, unsigned blocks) const {
    vector_past_tail_kernel<T, BLOCK, MASKED><<<blocks, BLOCK>>>(in, out, count,
                                                                 unaligned_head(in, count));
  }
};

}  // namespace

template <typename T>
T last_warp_without_syncwarp(const T* input, std::size_t n, int block_size, Workspace<T>& ws) {
  check_arguments("last_warp_without_syncwarp", input, n, block_size);
  return in_passes(input, n, block_size, ws, 2, false, VolatileLastWarp{});
}

template <typename T>
T partial_mask_shuffle(const T* input, std::size_t n, int block_size, Workspace<T>& ws) {
  check_arguments("partial_mask_shuffle", input, n, block_size);
  return in_passes(input, n, block_size, ws, 2, true, PartialMask{});
}

template <typename T>
T vector_load_past_the_tail(const T* input, std::size_t n, int block_size, Workspace<T>& ws) {
  check_arguments("vector_load_past_the_tail", input, n, block_size);
  return in_passes(input, n, block_size, ws, Vector16<T>::width * kVectorsInFlight, true,
                   VectorPastTail<false>{});
}

template <typename T>
T masked_vector_load_past_the_tail(const T* input, std::size_t n, int block_size,
                                   Workspace<T>& ws) {
  check_arguments("masked_vector_load_past_the_tail", input, n, block_size);
  return in_passes(input, n, block_size, ws, Vector16<T>::width * kVectorsInFlight, true,
                   VectorPastTail<true>{});
}

template <typename T>
T missing_threadfence(const T* input, std::size_t n, int block_size, Workspace<T>& ws) {
  check_arguments("missing_threadfence", input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    return reduce_in_one_launch<BLOCK>(missing_threadfence_kernel<T, BLOCK>,
                                       "missing_threadfence_kernel", input, n, ws);
  });
}

template <typename T>
T block_scope_fence(const T* input, std::size_t n, int block_size, Workspace<T>& ws) {
  check_arguments("block_scope_fence", input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    return reduce_in_one_launch<BLOCK>(block_scope_fence_kernel<T, BLOCK>,
                                       "block_scope_fence_kernel", input, n, ws);
  });
}

WARP_REDUCTION_INSTANTIATE(last_warp_without_syncwarp)
WARP_REDUCTION_INSTANTIATE(partial_mask_shuffle)
WARP_REDUCTION_INSTANTIATE(vector_load_past_the_tail)
WARP_REDUCTION_INSTANTIATE(masked_vector_load_past_the_tail)
WARP_REDUCTION_INSTANTIATE(missing_threadfence)
WARP_REDUCTION_INSTANTIATE(block_scope_fence)

}  // namespace warp_reduction::mistakes
