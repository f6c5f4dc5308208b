// The classic mistakes of the reduction kernels (see mistakes.hpp).
#include "mistakes.hpp"
#include "reduction.cuh"
#include "reduction_device.cuh"

namespace reduction::mistakes {

namespace {

template <typename T, bool SYNC, unsigned LAST_STRIDE>
__global__ void sequential_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s >= LAST_STRIDE; s >>= 1) {  // BUG if LAST_STRIDE is 2
    if (tid < s) sdata[tid] += sdata[tid + s];
    if (SYNC) __syncthreads();  // BUG if missing
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

// The pre-Volta warp reduction: relies on the warp executing in lockstep. BUG on Volta+.
template <typename T>
__device__ void volatile_warp_reduce(volatile T* sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

template <typename T>
__global__ void volatile_last_warp_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * blockDim.x) + tid;
  T sum = i < n ? input[i] : T(0);
  if (i + blockDim.x < n) sum += input[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) volatile_warp_reduce(sdata, tid);
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void interleaved_without_sync_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];  // BUG: no __syncthreads() after
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void second_load_unguarded_kernel(const T* input, T* block_sums, std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * blockDim.x) + tid;
  T sum = i < n ? input[i] : T(0);
  const T second = input[i + blockDim.x];  // BUG: read before checking i + blockDim.x < n
  if (i + blockDim.x < n) sum += second;
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

// Kernel 3 with its barrier where only the threads that add reach it (BUG either way).
template <typename T>
__global__ void reduce3_syncthreads_inside_if_kernel(const T* input, T* block_sums,
                                                     std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();  // BUG: threads with tid >= s never reach it
    }
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void reduce3_syncthreads_under_if_kernel(const T* input, T* block_sums,
                                                    std::size_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    if (tid < s) __syncthreads();  // BUG: threads with tid >= s never reach it
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

}  // namespace

template <typename T>
void reduce3_syncthreads_inside_if_pass(const T* input, T* block_sums, std::size_t n,
                                        int block_size) {
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  reduce3_syncthreads_inside_if_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(
      input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce3_syncthreads_inside_if");
}

template <typename T>
void reduce3_syncthreads_under_if_pass(const T* input, T* block_sums, std::size_t n,
                                       int block_size) {
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  reduce3_syncthreads_under_if_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(
      input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce3_syncthreads_under_if");
}

template <typename T>
void reduce1_without_syncthreads_pass(const T* input, T* block_sums, std::size_t n,
                                      int block_size) {
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  interleaved_without_sync_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("reduce1_without_syncthreads");
}

template <typename T>
void second_load_unguarded_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  const unsigned blocks = course::ceil_div(n, 2 * static_cast<std::size_t>(block_size));
  second_load_unguarded_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("second_load_unguarded");
}

template <typename T>
void missing_syncthreads_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  sequential_kernel<T, false, 1><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("missing_syncthreads");
}

template <typename T>
void stride_off_by_one_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  const unsigned blocks = course::ceil_div(n, static_cast<std::size_t>(block_size));
  sequential_kernel<T, true, 2><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("stride_off_by_one");
}

template <typename T>
void last_warp_volatile_only_pass(const T* input, T* block_sums, std::size_t n, int block_size) {
  const unsigned blocks = course::ceil_div(n, 2 * static_cast<std::size_t>(block_size));
  volatile_last_warp_kernel<T><<<blocks, block_size, block_size * sizeof(T)>>>(input, block_sums, n);
  COURSE_CHECK_LAUNCH("last_warp_volatile_only");
}

REDUCTION_INSTANTIATE_PASS(missing_syncthreads_pass)
REDUCTION_INSTANTIATE_PASS(stride_off_by_one_pass)
REDUCTION_INSTANTIATE_PASS(last_warp_volatile_only_pass)
REDUCTION_INSTANTIATE_PASS(reduce1_without_syncthreads_pass)
REDUCTION_INSTANTIATE_PASS(second_load_unguarded_pass)
REDUCTION_INSTANTIATE_PASS(reduce3_syncthreads_inside_if_pass)
REDUCTION_INSTANTIATE_PASS(reduce3_syncthreads_under_if_pass)

}  // namespace reduction::mistakes
