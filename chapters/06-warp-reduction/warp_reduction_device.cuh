// Device pieces of chapter 06.
//
// ready_made:: holds the finished building blocks that the later steps stand on: each one is
// the answer of an earlier step (do that step before reading it). They are here, and not taken
// from your earlier files, so that each step's tests depend on that step's file alone.
#pragma once

#include <cstddef>

#include "warp_reduction.cuh"

namespace warp_reduction {

// Every lane of the warp takes part in the warp-wide functions below.
inline constexpr unsigned kFullMask = 0xffffffffu;

// The 16-byte vector of each element type: the widest load a thread can issue in one
// instruction (LDG.E.128), with `width` elements.
template <typename T>
struct Vector16;
template <>
struct Vector16<int> {
  using type = int4;
  static constexpr int width = 4;
};
template <>
struct Vector16<float> {
  using type = float4;
  static constexpr int width = 4;
};
template <>
struct Vector16<double> {
  using type = double2;
  static constexpr int width = 2;
};

__device__ inline int component_sum(const int4& v) { return (v.x + v.y) + (v.z + v.w); }
__device__ inline float component_sum(const float4& v) { return (v.x + v.y) + (v.z + v.w); }
__device__ inline double component_sum(const double2& v) { return v.x + v.y; }

// Vectors each thread of steps 4-6 loads before it adds any of them: 128 bytes in flight per
// thread. (Measured on an H100 at 2^26 doubles: 8 beat 4 and 2 by a fraction of a percent.)
inline constexpr int kVectorsInFlight = 8;
// With that many bytes in flight per thread, 1024 threads per multiprocessor keep the memory
// busy (128 KiB in flight per SM, ten times what bandwidth x latency asks for), and half the
// blocks leave half the block sums for the last block to add.
inline constexpr int kVectorThreadsPerMultiprocessor = 1024;

namespace ready_made {

// Step 1's tree, after every thread has stored `sum` in sdata[threadIdx.x] and the block has
// waited: levels written out for the compile-time BLOCK, the last warp with __syncwarp().
// Thread 0 ends with the block's total in sdata[0].
template <typename T, unsigned BLOCK>
__device__ void unrolled_tree(T* sdata, T sum) {
  const unsigned tid = threadIdx.x;
  if (BLOCK >= 1024) {
    if (tid < 512) sdata[tid] = sum = sum + sdata[tid + 512];
    __syncthreads();
  }
  if (BLOCK >= 512) {
    if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256];
    __syncthreads();
  }
  if (BLOCK >= 256) {
    if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128];
    __syncthreads();
  }
  if (BLOCK >= 128) {
    if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset /= 2) {
      sum += sdata[tid + offset];
      __syncwarp();
      sdata[tid] = sum;
      __syncwarp();
    }
  }
}

// Step 2's loop: this thread's share of input[0, n), two elements BLOCK apart per round.
template <typename T, unsigned BLOCK>
__device__ T grid_stride_sum(const T* input, std::size_t n) {
  T sum = T(0);
  const std::size_t stride = static_cast<std::size_t>(2 * BLOCK) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BLOCK) + threadIdx.x; i < n;
       i += stride) {
    sum += input[i];
    if (i + BLOCK < n) sum += input[i + BLOCK];
  }
  return sum;
}

// Step 3: a warp's total (in lane 0) through shuffles, then a block's (in thread 0) through
// one shared slot per warp.
template <typename T>
__device__ T warp_sum(T value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullMask, value, offset);
  }
  return value;
}

template <typename T, unsigned BLOCK>
__device__ T block_sum(T value) {
  __shared__ T warp_sums[BLOCK / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  value = warp_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) value = warp_sum(lane < BLOCK / 32 ? warp_sums[lane] : T(0));
  return value;
}

// Step 4: this thread's share of input[0, n) through 16-byte loads, kVectorsInFlight of them
// issued before any is added; `head` elements before the first 16-byte boundary and the
// tail after the last whole vector one at a time.
template <typename T, unsigned BLOCK>
__device__ T vectorized_sum(const T* input, std::size_t n, std::size_t head) {
  using Vector = typename Vector16<T>::type;
  constexpr int kWidth = Vector16<T>::width;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * BLOCK;
  const std::size_t vectors = (n - head) / kWidth;
  const std::size_t tail = head + vectors * kWidth;
  T sum = T(0);
  if (thread < head) sum += input[thread];
  if (thread < n - tail) sum += input[tail + thread];
  const Vector* vector = reinterpret_cast<const Vector*>(input + head);
  std::size_t i = thread;
  for (; i + (kVectorsInFlight - 1) * threads < vectors; i += kVectorsInFlight * threads) {
    Vector loaded[kVectorsInFlight];
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) loaded[k] = vector[i + k * threads];
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) sum += component_sum(loaded[k]);
  }
  for (; i < vectors; i += threads) sum += component_sum(vector[i]);
  return sum;
}

// A block-sum function object for the ready-made one-launch ending: step 3's shuffles.
struct ShuffleBlockSum {
  template <typename T, unsigned BLOCK>
  __device__ T apply(T value) const {
    return block_sum<T, BLOCK>(value);
  }
};

// Step 5's ending: every block stores its total; the last block to take a ticket adds all the
// block totals and writes the result. `sum` is the block-sum function object.
template <typename T, unsigned BLOCK, typename BlockSum>
__device__ void finish_in_the_last_block(T block_total, T* block_sums, unsigned* ticket,
                                         T* result, const BlockSum& sum) {
  if (gridDim.x == 1) {  // the only block is the last: no ticket, no second reduction
    if (threadIdx.x == 0) *result = block_total;
    return;
  }
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = block_total;
    __threadfence();  // the store is visible to every block before the ticket is
    const bool last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    if (last) __threadfence();  // and the other blocks' stores before this block reads them
    is_last = last;
  }
  __syncthreads();
  if (!is_last) return;
  T total = T(0);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) total += __ldcg(block_sums + b);
  total = sum.template apply<T, BLOCK>(total);
  if (threadIdx.x == 0) {
    *result = total;
    *ticket = 0;  // ready for the next launch
  }
}

}  // namespace ready_made

// Steps 5 and 6 on the host: the whole reduction in one launch of `kernel`(input, n, head,
// block_sums, ticket, result) on a grid-stride grid, then the result copied to the host.
template <unsigned BLOCK, typename T>
T reduce_in_one_launch(void (*kernel)(const T*, std::size_t, std::size_t, T*, unsigned*, T*),
                       const char* name, const T* input, std::size_t n, Workspace<T>& workspace) {
  if (n == 0) return workspace.finish_call(nullptr);
  constexpr std::size_t kPerBlock = BLOCK * Vector16<T>::width * kVectorsInFlight;
  const unsigned blocks = grid_stride_blocks(reinterpret_cast<const void*>(kernel), BLOCK, n,
                                             kPerBlock, kVectorThreadsPerMultiprocessor);
  workspace.begin_call(blocks);
  kernel<<<blocks, BLOCK>>>(input, n, unaligned_head(input, n), workspace.block_sums(0),
                            workspace.ticket(), workspace.result());
  COURSE_CHECK_LAUNCH(name);
  workspace.count_launch();
  return workspace.finish_call(workspace.result());
}

}  // namespace warp_reduction
