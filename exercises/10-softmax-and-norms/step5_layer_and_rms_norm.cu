// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.5
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 5: LayerNorm and RMSNorm, FP16 in and out, FP32 arithmetic, with softmax's skeleton.
// One block per row, the row held in registers (16-byte vectors of 8 halves, loaded with step 3's
// load_vector, ready-made), one block reduction of the row's statistics, then each value
// normalized, scaled by gamma (and shifted by beta) and stored as FP16.
// LayerNorm's statistics: the mean and the variance. Computed as E[x^2] - E[x]^2 in FP32 they
// cancel catastrophically when the mean is large against the spread (README). Here each thread
// computes the count, mean and M2 (sum of squared deviations) of its own values exactly as the
// two-pass formula says (the values are in its registers: the second pass costs no memory), and
// the threads' triples are merged pairwise with Chan, Golub and LeVeque's formula, in which
// only differences of means appear (Welford's update is its case of one value at a time).
// RMSNorm's statistic: the mean of the squares, a plain sum.
#include <climits>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::exercise {

namespace {
constexpr int W = kWidth<__half>;  // 8 halves per 16-byte vector
}  // namespace

// The count, mean and M2 of this thread's values of the row: x[s * W + j] is column
// (s * stride + index) * W + j; the columns at or past `cols` are not values (x holds 0 there).
template <int kSlots>
__device__ Moments thread_moments(const float (&x)[kSlots * kWidth<__half>], int index,
                                  int stride, int cols) {
  constexpr int width = kWidth<__half>;
  Moments moments = {0.0f, 0.0f, 0.0f};
  // TODO (step 5): the count of this thread's values, their mean, then the sum of their squared
  //       differences from that mean (a second pass over the registers, not a sum of squares:
  //       that would cancel catastrophically when the mean is large against the spread). A
  //       thread with no values keeps {0, 0, 0}.
  return moments;
}

// The count, mean and M2 of the values of a and b together.
__device__ inline Moments merge_moments(Moments a, Moments b) {
  Moments merged = a;
  // TODO (step 5): Chan's pairwise formula: the counts add; the mean moves from a's towards b's
  //       by b's share of the count times the difference of the means; M2 is both M2s plus the
  //       spread between the two means (the difference squared, times the product of the counts
  //       over their sum). A side with no values leaves the other as it is (never divide by a
  //       count of 0).
  return merged;
}

namespace {

struct MergeMoments {
  __device__ Moments operator()(Moments a, Moments b) const { return merge_moments(a, b); }
};

// y = (x - shift) * scale * gamma (+ beta): LayerNorm (shift = the mean, scale = 1 / sqrt(var +
// eps)) or RMSNorm (shift = 0, scale = 1 / sqrt(mean of squares + eps)), a block per row; each
// thread holds kSlots vectors (8 kSlots values).
template <bool kLayerNorm, int kSlots>
__global__ void __launch_bounds__(1024) norm_kernel(const __half* input, __half* output,
                                                    const __half* gamma, const __half* beta,
                                                    long long rows, int cols, float epsilon) {
  const RowOf<const __half> weight = {gamma, cols, true}, bias = {beta, cols, true};
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const RowOf<const __half> in = row_of(input, r, cols);
    float x[kSlots * W];
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      ready_made::load_vector(in, s * blockDim.x + threadIdx.x, 0.0f, x + s * W);
    }
    float shift = 0.0f, scale = 0.0f;
    if constexpr (kLayerNorm) {
      const Moments row = ready_made::block_reduce(
          thread_moments<kSlots>(x, threadIdx.x, blockDim.x, cols), MergeMoments{});
      shift = row.mean;
      scale = rsqrtf(row.m2 / row.count + epsilon);
    } else {
      // TODO (step 5): RMSNorm's scale: 1 / sqrt(the mean of the squares of the row's values
      //       + epsilon), the sum of squares reduced across the block (the slots past the row
      //       hold 0, which adds nothing).
    }
    const RowOf<__half> out = row_of(output, r, cols);
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const int k = s * blockDim.x + threadIdx.x;
      float g[W], b[W];
      ready_made::load_vector(weight, k, 0.0f, g);
      if (kLayerNorm) ready_made::load_vector(bias, k, 0.0f, b);
#pragma unroll
      for (int j = 0; j < W; ++j) {
        x[s * W + j] = (x[s * W + j] - shift) * scale * g[j] + (kLayerNorm ? b[j] : 0.0f);
      }
      ready_made::store_vector(out, k, x + s * W);
    }
  }
}

template <bool kLayerNorm>
void launch_norm(const __half* input, __half* output, const __half* gamma, const __half* beta,
                 long long rows, long long cols, float epsilon) {
  // As many whole warps as hold the row at 2 vectors (16 values) each up to 16384 columns, at 4
  // beyond (at most 1024 threads: 32768 columns). Few registers per thread: many rows in flight.
  const int vectors = vectors_of<__half>(static_cast<int>(cols));
  const auto grid = static_cast<unsigned>(rows < INT_MAX ? rows : INT_MAX);
  launch_with_at_least<2, 4>(course::ceil_div(vectors, 1024), [&](auto kSlots) {
    constexpr int slots = decltype(kSlots)::value;
    const int threads = static_cast<int>(course::ceil_div(vectors, slots * 32) * 32);
    norm_kernel<kLayerNorm, slots><<<grid, threads>>>(input, output, gamma, beta, rows,
                                                      static_cast<int>(cols), epsilon);
  });
  COURSE_CHECK_LAUNCH(kLayerNorm ? "norm_kernel<layer norm>" : "norm_kernel<rms norm>");
}

}  // namespace

void step5_layer_norm(const __half* input, __half* output, const __half* gamma,
                      const __half* beta, long long rows, long long cols, float epsilon) {
  check_norm_arguments("step5_layer_norm", input, output, gamma, beta, true, rows, cols, epsilon);
  launch_norm<true>(input, output, gamma, beta, rows, cols, epsilon);
}

void step5_rms_norm(const __half* input, __half* output, const __half* gamma, long long rows,
                    long long cols, float epsilon) {
  check_norm_arguments("step5_rms_norm", input, output, gamma, nullptr, false, rows, cols,
                       epsilon);
  launch_norm<false>(input, output, gamma, nullptr, rows, cols, epsilon);
}

}  // namespace softmax_and_norms::exercise
