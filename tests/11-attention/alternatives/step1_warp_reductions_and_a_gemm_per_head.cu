// ALTERNATIVE 11.1 step1_unfused.cu
// The softmax with cooperative groups' reductions (a warp's cg::reduce, then one slot per warp)
// and expf instead of __expf; the GEMMs as one cublasGemmEx per head, with the pointers moved by
// hand (head h starts h x head_dim halves after head 0) instead of a batch stride. The same
// products, in as many calls as heads.
// @top
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// @region
  namespace cg = cooperative_groups;
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int seen = causal ? query + 1 : n;
  float row_max = -INFINITY;
  for (int c = threadIdx.x; c < seen; c += kSoftmaxThreads) row_max = fmaxf(row_max, scale * s[c]);
  row_max = cg::reduce(warp, row_max, cg::greater<float>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = row_max;
  __syncthreads();
  for (int w = 0; w < kSoftmaxThreads / 32; ++w) row_max = fmaxf(row_max, partial[w]);
  __syncthreads();
  float total = 0.0f;
  for (int c = threadIdx.x; c < seen; c += kSoftmaxThreads) total += expf(scale * s[c] - row_max);
  total = cg::reduce(warp, total, cg::plus<float>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = total;
  __syncthreads();
  total = 0.0f;
  for (int w = 0; w < kSoftmaxThreads / 32; ++w) total += partial[w];
  for (int c = threadIdx.x; c < n; c += kSoftmaxThreads) {
    const float weight = c < seen ? expf(scale * s[c] - row_max) / total : 0.0f;
    p[c] = __float2half_rn(weight);
  }
// @region
      for (int h = 0; h < heads; ++h) {
        const long long head_at = at + h * d;
        COURSE_CHECK_CUBLAS(cublasGemmEx(
            blas, CUBLAS_OP_T, CUBLAS_OP_N, shape.tokens, shape.tokens, shape.head_dim, &one,
            k + head_at, CUDA_R_16F, static_cast<int>(token_stride), q + head_at, CUDA_R_16F,
            static_cast<int>(token_stride), &zero, scores + h * square, CUDA_R_32F,
            shape.tokens, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      }
      softmax_rows<<<static_cast<unsigned>(heads * n), kSoftmaxThreads>>>(
          scores, probabilities, shape.tokens, scale, shape.causal);
      COURSE_CHECK_LAUNCH("softmax_rows");
      for (int h = 0; h < heads; ++h) {
        const long long head_at = at + h * d;
        COURSE_CHECK_CUBLAS(cublasGemmEx(
            blas, CUBLAS_OP_N, CUBLAS_OP_N, shape.head_dim, shape.tokens, shape.tokens, &one,
            v + head_at, CUDA_R_16F, static_cast<int>(token_stride), probabilities + h * square,
            CUDA_R_16F, shape.tokens, &zero, o + head_at, CUDA_R_16F,
            static_cast<int>(token_stride), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      }
