// ALTERNATIVE 07.5 step5_double_buffering.cu
// N's copies with CUDA's own pipeline primitives (<cuda_pipeline.h>) instead of the chapter's
// functions: __pipeline_memcpy_async's last argument is the number of bytes to fill with zeros
// (16 outside N, with the source clamped to N's first element), then __pipeline_commit and
// __pipeline_wait_prior(0). The loop picks each stage from the slice's number instead of
// keeping a stage index.
// @top
#include <cuda_pipeline.h>
// @region
      const float* source = N + (inside ? (row0 + r) * ldn + col0 + c : 0);
      __pipeline_memcpy_async(tile + r * BN + c, source, 16, inside ? 0 : 16);
// @region
    __pipeline_commit();
// @region
    __pipeline_wait_prior(0);
// @region
    float* m_now = Mtile_t[(tile - k_begin) / BK % 2];
    float* n_now = Ntile[(tile - k_begin) / BK % 2];
    float* m_later = Mtile_t[1 - (tile - k_begin) / BK % 2];
    float* n_later = Ntile[1 - (tile - k_begin) / BK % 2];
    const int next = tile + BK;
    if (next < k_end) {
      m_next.fetch(M, block_row, next, m, k, ldm);
      n_next.start(N, n_later, next, block_col, k, n, ldn);
    }
    warp_tile.template multiply<BK>(m_now, n_now, acc);
    if (next < k_end) {
      m_next.store(m_later);
      n_next.finish(n_later);
    }
    __syncthreads();
    (void)stage;
