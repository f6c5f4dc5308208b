// Step 1: attention as three library-sized pieces. For each batch and group of heads:
//   S = Q K^T          one cuBLAS strided-batched GEMM per group (FP16 in, FP32 out),
//   P = softmax(S / sqrt(d)) row by row    a kernel of our own (FP32 in, FP16 out),
//   O = P V            a second GEMM (FP16 in, FP32 accumulation, FP16 out).
// Correct and simple, and the N x N matrices S and P go through DRAM: 6 N^2 bytes written and
// read back per head, against 8 N d bytes for Q, K, V and O. At N = 16K and d = 128 that is 1.6 GB
// against 16 MB per head: the fused steps never write S or P at all.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>

#include "attention.cuh"
#include "attention_device.cuh"
#include "course/cublas.hpp"

namespace attention::solution {

namespace {

constexpr int kSoftmaxThreads = 256;

// The block's max (or sum) of one value per thread, in every thread. Ends with a barrier, so it
// may be called again at once.
__device__ float block_reduce(float value, bool is_max, float* partial) {
  for (int distance = 16; distance > 0; distance /= 2) {
    const float other = __shfl_xor_sync(kFullMask, value, distance);
    value = is_max ? fmaxf(value, other) : value + other;
  }
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = value;
  __syncthreads();
  value = partial[0];
  for (int w = 1; w < kSoftmaxThreads / 32; ++w) {
    value = is_max ? fmaxf(value, partial[w]) : value + partial[w];
  }
  __syncthreads();
  return value;
}

// One block per row of S: row `row` of an n x n block of scores (the head's query `row % n`);
// P = exp(scale s - max) / sum over the keys the row sees (all n, or, causal, keys 0..query),
// written as FP16; the keys it does not see get exactly 0.
__global__ void __launch_bounds__(kSoftmaxThreads) softmax_rows(const float* scores,
                                                                 __half* probabilities, int n,
                                                                 float scale, bool causal) {
  __shared__ float partial[kSoftmaxThreads / 32];
  const long long row = blockIdx.x;
  const float* s = scores + row * n;
  __half* p = probabilities + row * n;
  const int query = static_cast<int>(row % n);
  // BEGIN SOLUTION
  // TODO (step 1): the row's softmax of scale * s over the keys it sees, stable for any scores
  //       (what must be subtracted before exp?), in FP16; 0 for the keys it does not see. The
  //       ready-made block_reduce gives the whole block's max or sum.
  const int end = causal ? query + 1 : n;
  float max = -INFINITY;
  for (int c = threadIdx.x; c < end; c += kSoftmaxThreads) max = fmaxf(max, s[c] * scale);
  max = block_reduce(max, true, partial);
  float sum = 0.0f;
  for (int c = threadIdx.x; c < end; c += kSoftmaxThreads) sum += __expf(s[c] * scale - max);
  const float inverse = 1.0f / block_reduce(sum, false, partial);  // the max's term is 1
  for (int c = threadIdx.x; c < n; c += kSoftmaxThreads) {
    p[c] = __float2half_rn(c < end ? __expf(s[c] * scale - max) * inverse : 0.0f);
  }
  // END SOLUTION
}

}  // namespace

void step1_unfused(const __half* q, const __half* k, const __half* v, __half* o,
                   const Shape& shape, Workspace& workspace) {
  check_arguments("step1_unfused", q, k, v, o, shape, kMaxUnfusedTokens);
  workspace.begin_call();
  const long long n = shape.tokens, d = shape.head_dim, square = n * n;
  // As many heads per pair of GEMMs as fit kUnfusedBudgetBytes of S and P (at least one).
  const long long bytes_per_head = square * (sizeof(float) + sizeof(__half));
  const int group = static_cast<int>(std::clamp<long long>(
      static_cast<long long>(kUnfusedBudgetBytes) / bytes_per_head, 1, shape.heads));
  auto* scores = static_cast<float*>(workspace.scratch(0, group * square * sizeof(float)));
  auto* probabilities =
      static_cast<__half*>(workspace.scratch(1, group * square * sizeof(__half)));
  const auto blas = static_cast<cublasHandle_t>(workspace.blas());
  COURSE_CHECK_CUBLAS(cublasSetStream(blas, nullptr));
  const float one = 1.0f, zero = 0.0f;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  const long long token_stride = shape.heads * d;  // halves from one token to the next
  for (int b = 0; b < shape.batch; ++b) {
    for (int h0 = 0; h0 < shape.heads; h0 += group) {
      const int heads = std::min(group, shape.heads - h0);
      const long long at = b * n * token_stride + h0 * d;  // token 0 of head h0 of batch b
      // BEGIN SOLUTION
      // TODO (step 1): for each of the `heads` heads, S = Q K^T (n x n, FP32, row-major: row i,
      //       column j at scores[head * square + i * n + j]), then the softmax kernel over all
      //       heads x n rows, then O = P V into o. cuBLAS is column-major: a row-major matrix is
      //       its transpose to cuBLAS. In a head, token i's d values start token_stride halves
      //       after token i - 1's, and head h + 1 starts d halves after head h.
      // Column-major, a head's Q and K are d x n matrices with leading dimension token_stride;
      // S^T = K^T Q (n x n, column-major) is S row-major.
      COURSE_CHECK_CUBLAS(cublasGemmStridedBatchedEx(
          blas, CUBLAS_OP_T, CUBLAS_OP_N, shape.tokens, shape.tokens, shape.head_dim, &one,
          k + at, CUDA_R_16F, static_cast<int>(token_stride), d, q + at, CUDA_R_16F,
          static_cast<int>(token_stride), d, &zero, scores, CUDA_R_32F, shape.tokens, square,
          heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      softmax_rows<<<static_cast<unsigned>(heads * n), kSoftmaxThreads>>>(
          scores, probabilities, shape.tokens, scale, shape.causal);
      COURSE_CHECK_LAUNCH("softmax_rows");
      // O^T (d x n, column-major, leading dimension token_stride) = V^T P^T: V^T is the d x n
      // column-major view of V, P^T the column-major view of row-major P.
      COURSE_CHECK_CUBLAS(cublasGemmStridedBatchedEx(
          blas, CUBLAS_OP_N, CUBLAS_OP_N, shape.head_dim, shape.tokens, shape.tokens, &one,
          v + at, CUDA_R_16F, static_cast<int>(token_stride), d, probabilities, CUDA_R_16F,
          shape.tokens, square, &zero, o + at, CUDA_R_16F, static_cast<int>(token_stride), d,
          heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      // END SOLUTION
    }
  }
}

}  // namespace attention::solution
