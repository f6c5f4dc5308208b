// Step 5: LayerNorm and RMSNorm, FP16 or BF16 in and out, FP32 arithmetic, with softmax's
// skeleton. A block per row at a time, the row held in registers (16-byte vectors of 8 FP16 or
// BF16 values), one block reduction of the row's statistics, then each value normalized, scaled
// by gamma (and shifted by beta) and stored in the input's type. Changed from softmax's block
// per row, for RMSNorm: each block loops over rows and copies the next ones ahead into shared
// memory while it reduces this one (the kernel's comment says why).
// LayerNorm's statistics: the mean and the variance. Computed as E[x^2] - E[x]^2 in FP32 they
// cancel catastrophically when the mean is large against the spread (README). Here each thread
// computes the count, mean and M2 (sum of squared deviations) of its own values exactly as the
// two-pass formula says (the values are in its registers: the second pass costs no memory), and
// the threads' triples are merged pairwise with Chan, Golub and LeVeque's formula, in which
// only differences of means appear (Welford's update is its case of one value at a time).
// RMSNorm's statistic: the mean of the squares, a plain sum.
#include <cuda_pipeline.h>

#include <cstdint>

#include "course/device_info.hpp"
#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::solution {

namespace {
// 8 values per 16-byte vector, FP16 or BF16 alike: the code on floats below serves both types.
constexpr int W = kWidth<__half>;
static_assert(kWidth<__nv_bfloat16> == W, "FP16 and BF16 vectors hold as many values");
}  // namespace

// The count, mean and M2 of this thread's values of the row: x[s * W + j] is column
// (s * stride + index) * W + j; the columns at or past `cols` are not values (x holds 0 there).
template <int kSlots>
__device__ Moments thread_moments(const float (&x)[kSlots * kWidth<__half>], int index,
                                  int stride, int cols) {
  constexpr int width = kWidth<__half>;
  Moments moments = {0.0f, 0.0f, 0.0f};
  // BEGIN SOLUTION
  // TODO (step 5): the count of this thread's values, their mean, then the sum of their squared
  //       differences from that mean (a second pass over the registers, not a sum of squares:
  //       that would cancel catastrophically when the mean is large against the spread). A
  //       thread with no values keeps {0, 0, 0}.
  int count = 0;
  float sum = 0.0f;
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
    // The values in this vector: all width of them, fewer in the last one, none past the row.
    const int valid = min(max(cols - (s * stride + index) * width, 0), width);
    count += valid;
#pragma unroll
    for (int j = 0; j < width; ++j) sum += x[s * width + j];  // 0 where j >= valid
  }
  if (count > 0) {
    const float mean = sum / static_cast<float>(count);
    float m2 = 0.0f;
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int valid = cols - (s * stride + index) * width;
#pragma unroll
      for (int j = 0; j < width; ++j) {
        const float deviation = x[s * width + j] - mean;
        if (j < valid) m2 += deviation * deviation;
      }
    }
    moments = {static_cast<float>(count), mean, m2};
  }
  // END SOLUTION
  return moments;
}

// The count, mean and M2 of the values of a and b together.
__device__ inline Moments merge_moments(Moments a, Moments b) {
  Moments merged = a;
  // BEGIN SOLUTION
  // TODO (step 5): Chan's pairwise formula: the counts add; the mean moves from a's towards b's
  //       by b's share of the count times the difference of the means; M2 is both M2s plus the
  //       spread between the two means (the difference squared, times the product of the counts
  //       over their sum). A side with no values leaves the other as it is (never divide by a
  //       count of 0).
  if (b.count == 0.0f) return a;
  if (a.count == 0.0f) return b;
  const float count = a.count + b.count;
  // b's share of the values. __fdividef: about 2 ulp, and no IEEE division's slow path (this
  // merge runs at every level of the block's reduction; counts are at most 2^30).
  const float share = __fdividef(b.count, count);
  const float delta = b.mean - a.mean;
  merged.mean = a.mean + delta * share;
  merged.m2 = a.m2 + b.m2 + delta * delta * a.count * share;
  merged.count = count;
  // END SOLUTION
  return merged;
}

namespace {

struct MergeMoments {
  __device__ Moments operator()(Moments a, Moments b) const { return merge_moments(a, b); }
};

// The kernel's shape (measured on an H200, FP16 rows of 4K and 8K columns; BF16 rows are the same
// bytes; docs/notes/10-step6-cluster-and-norm-experiments.md): 128 threads per row and up to 8
// vectors per thread; gamma and beta read with each row (from L1: every block reads the same).
// LayerNorm: a block per row, and as many blocks per SM as the registers allow (README,
// step 5): while some reduce, others load. RMSNorm on whole rows of up to kRingMaxVectors
// vectors: a grid of as many blocks as the GPU holds at once, each looping over rows and copying
// the next ones ahead into a ring of kRingStages rows in shared memory (cp.async: each thread
// copies, and later reads, its own vectors, so no barrier is needed). Measured: RMSNorm 90% of
// the copy with the ring, 84% with its next row held in registers instead; LayerNorm with the
// same ring 80-85%, a block per row (as shipped) 87-90%.
constexpr int kNormThreads = 128;
constexpr int kNormSlotsPerThread = 8;  // vectors per thread at most, at 128 threads (8K values)
// Blocks an SM must be able to hold, which bounds the registers the compiler may give a thread:
// LayerNorm's whole rows of 8K values (128 threads, 8 vectors each) took 127 registers (4 blocks
// an SM); bounded to 96, 5 blocks fit, and they went from 84% to 89% of the copy (the same
// build otherwise, one run). Other kernels keep what the compiler chooses.
template <bool kWholeLayerNorm, int kSlots, int kThreads>
inline constexpr int kNormMinBlocks = kWholeLayerNorm && kSlots == 8 && kThreads == 128 ? 5 : 1;
constexpr int kRingStages = 3;
constexpr int kRingMaxVectors = 1024;  // 8K values: 256 threads x 4 vectors

// The raw 16-byte vectors of this thread's slots of row `r` (vector s * blockDim.x + threadIdx.x;
// zeros past the row). Only for whole, aligned vectors (kWhole).
template <typename T, int kSlots>
__device__ void load_raw(const T* matrix, long long r, int cols, Vector<T> (&v)[kSlots]) {
  const auto* row = reinterpret_cast<const Vector<T>*>(matrix + r * cols);
  const int vectors = cols / W;
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
    const int k = s * blockDim.x + threadIdx.x;
    v[s] = k < vectors ? load_streaming(row + k) : Vector<T>{};
  }
}

// y = (x - shift) * scale * gamma (+ beta): LayerNorm (shift = the mean, scale = 1 / sqrt(var +
// eps)) or RMSNorm (shift = 0, scale = 1 / sqrt(mean of squares + eps)). Block b takes rows b,
// b + gridDim.x, ... (one row each when the grid has a block per row); each thread holds kSlots
// vectors (8 kSlots values) of the row. T: __half or __nv_bfloat16, converted to float on load
// and back on store. kWhole: every row is whole aligned 16-byte vectors (cols a multiple of 8,
// pointers aligned): raw 16-byte loads and stores. Otherwise each vector goes through
// load_vector and store_vector. kRing (whole rows only): the next rows copied ahead.
template <typename T, bool kLayerNorm, int kSlots, int kThreads, bool kWhole, bool kRing = false>
__global__ void __launch_bounds__(kThreads,
                                  (kNormMinBlocks<kWhole && kLayerNorm, kSlots, kThreads>))
    norm_kernel(const T* input, T* output, const T* gamma, const T* beta, long long rows, int cols,
                float epsilon) {
  static_assert(!kRing || kWhole, "the ring holds whole, aligned vectors");
  extern __shared__ __align__(16) unsigned char ring_bytes[];  // kRing: [stage][slot][thread]
  Vector<T>* const ring = reinterpret_cast<Vector<T>*>(ring_bytes);
  const int vectors = cols / W;
  // kRing: this thread's vectors of row `r` into `stage`, as one group of copies.
  const auto copy_ahead = [&](long long r, int stage) {
    if (r < rows) {
      const auto* row = reinterpret_cast<const Vector<T>*>(input + r * cols);
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        const int k = s * kThreads + threadIdx.x;
        if (k < vectors) {
          __pipeline_memcpy_async(&ring[(stage * kSlots + s) * kThreads + threadIdx.x], row + k,
                                  sizeof(Vector<T>));
        }
      }
    }
    __pipeline_commit();
  };
  const RowOf<const T> weight = row_of(gamma, 0, cols), bias = row_of(beta, 0, cols);
  if constexpr (kRing) {
#pragma unroll
    for (int i = 0; i < kRingStages - 1; ++i) {
      copy_ahead(blockIdx.x + static_cast<long long>(i) * gridDim.x, i);
    }
  }
  int stage = 0;  // kRing: the stage that holds row r
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    float x[kSlots * W];
    if constexpr (kRing) {
      __pipeline_wait_prior(kRingStages - 2);  // row r's copies have landed
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        const int k = s * kThreads + threadIdx.x;
        unpack(k < vectors ? ring[(stage * kSlots + s) * kThreads + threadIdx.x] : Vector<T>{},
               x + s * W);
      }
      // The stage read one row ago is free: refill it kRingStages - 1 rows ahead.
      copy_ahead(r + static_cast<long long>(kRingStages - 1) * gridDim.x,
                 (stage + kRingStages - 1) % kRingStages);
      stage = (stage + 1) % kRingStages;
    } else if constexpr (kWhole) {
      Vector<T> raw[kSlots];
      load_raw<T, kSlots>(input, r, cols, raw);
#pragma unroll
      for (int s = 0; s < kSlots; ++s) unpack(raw[s], x + s * W);
    } else {
      const RowOf<const T> in = row_of(input, r, cols);
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        ready_made::load_vector(in, s * blockDim.x + threadIdx.x, 0.0f, x + s * W);
      }
    }
    float shift = 0.0f, scale = 0.0f;
    if constexpr (kLayerNorm) {
      const Moments row = ready_made::block_reduce(
          thread_moments<kSlots>(x, threadIdx.x, blockDim.x, cols), MergeMoments{});
      shift = row.mean;
      scale = rsqrtf(row.m2 / row.count + epsilon);
    } else {
      // BEGIN SOLUTION
      // TODO (step 5): RMSNorm's scale: 1 / sqrt(the mean of the squares of the row's values
      //       + epsilon), the sum of squares reduced across the block (the slots past the row
      //       hold 0, which adds nothing).
      float squares = 0.0f;
#pragma unroll
      for (int i = 0; i < kSlots * W; ++i) squares += x[i] * x[i];
      scale = rsqrtf(ready_made::block_reduce(squares, Sum{}) / static_cast<float>(cols) + epsilon);
      // END SOLUTION
    }
    const RowOf<T> out = row_of(output, r, cols);
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int k = s * blockDim.x + threadIdx.x;
      float gs[W], bs[W];
      if constexpr (kWhole) {
        unpack(k < vectors ? reinterpret_cast<const Vector<T>*>(gamma)[k] : Vector<T>{}, gs);
        if (kLayerNorm) {
          unpack(k < vectors ? reinterpret_cast<const Vector<T>*>(beta)[k] : Vector<T>{}, bs);
        }
      } else {
        ready_made::load_vector(weight, k, 0.0f, gs);
        if (kLayerNorm) ready_made::load_vector(bias, k, 0.0f, bs);
      }
#pragma unroll
      for (int j = 0; j < W; ++j) {
        x[s * W + j] = (x[s * W + j] - shift) * scale * gs[j] + (kLayerNorm ? bs[j] : 0.0f);
      }
      if (kWhole && k < vectors) {
        store_streaming(reinterpret_cast<Vector<T>*>(out.data) + k, pack<T>(x + s * W));
      } else if (!kWhole) {
        ready_made::store_vector(out, k, x + s * W);
      }
    }
  }
}

// The ring's grid: as many blocks of `kernel` as the GPU holds at once (at most one per row). The
// occupancy query costs the host microseconds, which a short launch would wait for: course::
// remembers it per device, kernel, block size and shared memory.
template <typename Kernel>
unsigned resident_grid(Kernel kernel, int threads, long long rows, int shared_bytes) {
  const long long resident =
      static_cast<long long>(course::resident_blocks_per_multiprocessor(
          reinterpret_cast<const void*>(kernel), threads, shared_bytes)) *
      course::multiprocessor_count();
  return static_cast<unsigned>(rows < resident ? rows : resident);
}

template <typename T, bool kLayerNorm, bool kWhole>
void launch_norm_kernel(const T* input, T* output, const T* gamma, const T* beta, long long rows,
                        int cols, float epsilon) {
  // RMSNorm's whole rows up to 8K values: the ring (below). Otherwise a block per row: 128
  // threads with 1, 2, 4 or 8 vectors each up to 8192 columns; beyond, 8 vectors per thread and
  // as many threads as that takes (at most 512: 32768 columns).
  const int vectors = vectors_of<T>(cols);
  if (kWhole && !kLayerNorm && vectors <= kRingMaxVectors) {
    // 128 threads up to 4K values, 256 up to 8K, 1, 2 or 4 vectors each (measured shapes).
    const auto ring_launch = [&](auto kThreads) {
      constexpr int threads = decltype(kThreads)::value;
      launch_with_at_least<1, 2, 4>(course::ceil_div(vectors, threads), [&](auto kSlots) {
        constexpr int slots = decltype(kSlots)::value;
        const auto kernel = norm_kernel<T, false, slots, threads, true, true>;
        constexpr int shared = kRingStages * slots * threads * static_cast<int>(sizeof(Vector<T>));
        // The largest ring (48 KiB) with the reduction's slots is more than a block gets unasked.
        static const bool allowed = [&] {
          COURSE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            shared));
          return true;
        }();
        (void)allowed;
        kernel<<<resident_grid(kernel, threads, rows, shared), threads, shared>>>(
            input, output, gamma, beta, rows, cols, epsilon);
      });
    };
    if (vectors <= 512) {
      ring_launch(std::integral_constant<int, 128>{});
    } else {
      ring_launch(std::integral_constant<int, 256>{});
    }
  } else if (vectors <= kNormThreads * kNormSlotsPerThread) {
    launch_with_at_least<1, 2, 4, 8>(course::ceil_div(vectors, kNormThreads), [&](auto kSlots) {
      const auto kernel =
          norm_kernel<T, kLayerNorm, decltype(kSlots)::value, kNormThreads, kWhole>;
      kernel<<<static_cast<unsigned>(rows), kNormThreads>>>(input, output, gamma, beta, rows,
                                                            cols, epsilon);
    });
  } else {
    const int threads = static_cast<int>(course::ceil_div(vectors, kNormSlotsPerThread * 32) * 32);
    const auto kernel = norm_kernel<T, kLayerNorm, kNormSlotsPerThread, 512, kWhole>;
    kernel<<<static_cast<unsigned>(rows), threads>>>(input, output, gamma, beta, rows, cols,
                                                     epsilon);
  }
}

// Checks the arguments (beta: LayerNorm's only), then launches the kernel for T and the norm.
template <typename T, bool kLayerNorm>
void launch_norm(const char* step, const T* input, T* output, const T* gamma, const T* beta,
                 long long rows, long long cols, float epsilon) {
  check_norm_arguments(step, input, output, gamma, beta, kLayerNorm, rows, cols, epsilon);
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool whole = cols % W == 0 && aligned(input) && aligned(output) && aligned(gamma) &&
                     (!kLayerNorm || aligned(beta));
  if (whole) {
    launch_norm_kernel<T, kLayerNorm, true>(input, output, gamma, beta, rows,
                                            static_cast<int>(cols), epsilon);
  } else {
    launch_norm_kernel<T, kLayerNorm, false>(input, output, gamma, beta, rows,
                                             static_cast<int>(cols), epsilon);
  }
  COURSE_CHECK_LAUNCH(kLayerNorm ? "norm_kernel<layer norm>" : "norm_kernel<rms norm>");
}

}  // namespace

void step5_layer_norm(const __half* input, __half* output, const __half* gamma,
                      const __half* beta, long long rows, long long cols, float epsilon) {
  launch_norm<__half, true>("step5_layer_norm", input, output, gamma, beta, rows, cols, epsilon);
}

void step5_rms_norm(const __half* input, __half* output, const __half* gamma, long long rows,
                    long long cols, float epsilon) {
  launch_norm<__half, false>("step5_rms_norm", input, output, gamma, nullptr, rows, cols,
                             epsilon);
}

void step5_layer_norm(const __nv_bfloat16* input, __nv_bfloat16* output,
                      const __nv_bfloat16* gamma, const __nv_bfloat16* beta, long long rows,
                      long long cols, float epsilon) {
  launch_norm<__nv_bfloat16, true>("step5_layer_norm", input, output, gamma, beta, rows, cols,
                                   epsilon);
}

void step5_rms_norm(const __nv_bfloat16* input, __nv_bfloat16* output,
                    const __nv_bfloat16* gamma, long long rows, long long cols, float epsilon) {
  launch_norm<__nv_bfloat16, false>("step5_rms_norm", input, output, gamma, nullptr, rows, cols,
                                    epsilon);
}

}  // namespace softmax_and_norms::solution
