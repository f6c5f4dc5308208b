// Chapter 10's device code that no step asks the learner to write: the policy for a row with
// nothing in it, the reduction operators and the values they carry across lanes, and a row seen
// as 16-byte vectors of FP32, FP16 or BF16 values. Compiled by nvcc only (the .cu files include
// it; the host tests do not).
#pragma once

#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "course/hopper.cuh"
#include "softmax_and_norms.cuh"

namespace softmax_and_norms {

namespace cg = cooperative_groups;  // step 6: this_cluster() and its distributed shared memory

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kMaxWarps = 32;  // a block has at most 1024 threads

// ---- A row with nothing in it -------------------------------------------------------------------
// A row whose max is -inf is entirely masked: exp(x - max) would be exp(-inf - (-inf)) = NaN.
// The course's policy: such a row has no probability mass, and its softmax is 0 everywhere (as in
// scaled_dot_product_attention and FlashAttention; a NaN would poison every later sum).
// What to subtract from every value of a row whose max is `row_max`: the max, or 0 for a fully
// masked row (then every exp(x - 0) = exp(-inf) = 0 and the sum is 0).
__device__ __forceinline__ float shift_for(float row_max) {
  return row_max == -INFINITY ? 0.0f : row_max;
}
// What to multiply every exp by: 1 / sum, or 0 when the sum is 0 (a fully masked row).
__device__ __forceinline__ float scale_for(float sum) { return sum > 0.0f ? 1.0f / sum : 0.0f; }

// ---- Reductions: operators, and the values they move between lanes -----------------------------
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Step 4: the max of some values of a row and the sum of exp(value - max) over them. Nothing
// seen yet (or only -inf): {-inf, 0}. A plain struct, so that it can live in shared memory.
struct Partial {
  float max;
  float sum;
};
// Step 5: the count of some values, their mean, and M2, the sum of their squared deviations
// from that mean (the variance is M2 / count). Nothing seen yet: {0, 0, 0}.
struct Moments {
  float count;
  float mean;
  float m2;
};

// A value of lane (this lane ^ lane_mask), for the butterfly reductions: every lane calls it.
__device__ __forceinline__ float shuffle_xor(float value, int lane_mask) {
  return __shfl_xor_sync(kFullMask, value, lane_mask);
}
__device__ __forceinline__ Partial shuffle_xor(Partial value, int lane_mask) {
  return {shuffle_xor(value.max, lane_mask), shuffle_xor(value.sum, lane_mask)};
}
__device__ __forceinline__ Moments shuffle_xor(Moments value, int lane_mask) {
  return {shuffle_xor(value.count, lane_mask), shuffle_xor(value.mean, lane_mask),
          shuffle_xor(value.m2, lane_mask)};
}

// ---- Step 6: an inbox for the cluster's pairs -----------------------------------------------------
// Each block of a cluster keeps an inbox in its shared memory: a slot for the pair of every block
// of the cluster, and an mbarrier that counts the bytes landed in those slots. A block sends its
// pair into slot `its rank` of every block's inbox (course::hopper::store_pair_to_block: the store
// goes to the other SM and counts its 8 bytes there on arrival); a block whose barrier has
// counted the bytes of all the cluster's pairs holds them all. Two inboxes, used turn about (a
// block's rows 0, 2, 4... in the first), because a fast block sends its pair of the next row
// while a slower one may still read this row's.
struct ClusterInbox {
  Partial pairs[2][kMaxClusterBlocks];  // [turn % 2][rank of the block that sent it]
  std::uint64_t filled[2];              // counts the bytes landed in pairs[turn % 2]
};

// Every thread of every block of the cluster calls it once, before any block sends: the
// barriers initialised by one thread (and the initialisation released to the cluster), then a
// barrier of the whole cluster, so that no pair lands in a block whose barriers do not exist
// yet. The barrier is relaxed: it orders nothing by itself, and the fence before it releases the
// one thing that needs it, the initialisation (its wait still acquires).
// Sources: PTX ISA, mbarrier, fence.mbarrier_init and barrier.cluster.
__device__ inline void open_inbox(ClusterInbox& inbox) {
  if (threadIdx.x == 0) {
    course::hopper::barrier_init(&inbox.filled[0], 1);
    course::hopper::barrier_init(&inbox.filled[1], 1);
    course::hopper::fence_barrier_init();
  }
#if __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" :::
               "memory");
#endif
}

// ---- A row as 16-byte vectors -------------------------------------------------------------------
// Vector k of a row holds its columns k * W ... k * W + W - 1 (W = 4 floats, or 8 FP16 or BF16
// values); the last one may be partial. A row starts at a 16-byte boundary when the matrix does
// (the argument checks ask for it) and row * cols is a multiple of W: every row when cols is a
// multiple of W, some rows otherwise. Only whole vectors of such a row may be read or written as
// one 16-byte access.
template <typename T>
inline constexpr int kWidth = 16 / static_cast<int>(sizeof(T));

template <typename T>
struct RowOf {
  T* data;      // the row's first element
  int cols;
  bool aligned;  // data is on a 16-byte boundary
};
template <typename T>
__device__ __forceinline__ RowOf<T> row_of(T* matrix, long long row, int cols) {
  T* data = matrix + row * static_cast<long long>(cols);
  return {data, cols, reinterpret_cast<std::uintptr_t>(data) % 16 == 0};
}
// The number of vectors that cover a row of `cols` values of T.
template <typename T>
__host__ __device__ constexpr int vectors_of(int cols) {
  return (cols + kWidth<T> - 1) / kWidth<T>;
}

// The 16-byte vector type of T, and the conversions between it and W floats.
template <typename T>
struct VectorOf;
template <>
struct VectorOf<float> {
  using type = float4;
};
template <>
struct VectorOf<__half> {
  using type = uint4;  // 8 halves
};
// 8 BF16 values: a type of its own, not FP16's uint4, so that unpack and pack (and the steps'
// code that calls them) pick the conversion from the vector's type.
struct alignas(16) Bfloat16x8 {
  uint4 bits;
};
template <>
struct VectorOf<__nv_bfloat16> {
  using type = Bfloat16x8;
};
template <typename T>
using Vector = typename VectorOf<T>::type;

__device__ __forceinline__ float to_float(float value) { return value; }
__device__ __forceinline__ float to_float(__half value) { return __half2float(value); }
__device__ __forceinline__ float to_float(__nv_bfloat16 value) { return __bfloat162float(value); }
template <typename T>
__device__ __forceinline__ T from_float(float value);
template <>
__device__ __forceinline__ float from_float<float>(float value) { return value; }
template <>
__device__ __forceinline__ __half from_float<__half>(float value) { return __float2half_rn(value); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float value) {
  return __float2bfloat16_rn(value);
}

__device__ __forceinline__ void unpack(const float4& v, float* x) {
  x[0] = v.x;
  x[1] = v.y;
  x[2] = v.z;
  x[3] = v.w;
}
__device__ __forceinline__ void unpack(const uint4& v, float* x) {
  const __half2* halves = reinterpret_cast<const __half2*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 pair = __half22float2(halves[i]);
    x[2 * i] = pair.x;
    x[2 * i + 1] = pair.y;
  }
}
__device__ __forceinline__ void unpack(const Bfloat16x8& v, float* x) {
  const __nv_bfloat162* pairs = reinterpret_cast<const __nv_bfloat162*>(&v.bits);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 pair = __bfloat1622float2(pairs[i]);
    x[2 * i] = pair.x;
    x[2 * i + 1] = pair.y;
  }
}
template <typename T>
__device__ __forceinline__ Vector<T> pack(const float* x);
template <>
__device__ __forceinline__ float4 pack<float>(const float* x) {
  return make_float4(x[0], x[1], x[2], x[3]);
}
template <>
__device__ __forceinline__ uint4 pack<__half>(const float* x) {
  uint4 v;
  __half2* halves = reinterpret_cast<__half2*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) halves[i] = __floats2half2_rn(x[2 * i], x[2 * i + 1]);
  return v;
}
template <>
__device__ __forceinline__ Bfloat16x8 pack<__nv_bfloat16>(const float* x) {
  Bfloat16x8 v;
  __nv_bfloat162* pairs = reinterpret_cast<__nv_bfloat162*>(&v.bits);
#pragma unroll
  for (int i = 0; i < 4; ++i) pairs[i] = __floats2bfloat162_rn(x[2 * i], x[2 * i + 1]);
  return v;
}

// A 16-byte load or store marked streaming (__ldcs, __stcs: evict first, each byte is used once).
// The intrinsics take CUDA's own vector types; BF16's vector passes its bits.
template <typename V>
__device__ __forceinline__ V load_streaming(const V* vector) {
  return __ldcs(vector);
}
__device__ __forceinline__ Bfloat16x8 load_streaming(const Bfloat16x8* vector) {
  return {__ldcs(&vector->bits)};
}
template <typename V>
__device__ __forceinline__ void store_streaming(V* vector, const V& value) {
  __stcs(vector, value);
}
__device__ __forceinline__ void store_streaming(Bfloat16x8* vector, const Bfloat16x8& value) {
  __stcs(&vector->bits, value.bits);
}

// ---- Launchers ----------------------------------------------------------------------------------
// Calls launch(std::integral_constant<int, N>{}) with the first N of the list that is at least
// `needed` (the last one when none is): a count known at run time picks a kernel whose registers
// are sized at compile time.
template <int kFirst, int... kRest, typename Launch>
void launch_with_at_least(long long needed, Launch&& launch) {
  if constexpr (sizeof...(kRest) == 0) {
    launch(std::integral_constant<int, kFirst>{});
  } else if (needed <= kFirst) {
    launch(std::integral_constant<int, kFirst>{});
  } else {
    launch_with_at_least<kRest...>(needed, std::forward<Launch>(launch));
  }
}

}  // namespace softmax_and_norms
