// ALTERNATIVE 01.5 step5_block_reduction.cu
// Warp shuffles instead of a shared-memory tree: each warp adds its lanes with __shfl_down_sync,
// warp 0 adds the warp totals. A block below 32 threads is one partial warp: mask and width name
// only its lanes, and it counts as one warp (ceil_div), so blocks of 1 to 1024 threads are right.
// @top
#include "course/math.hpp"
// @region
  const std::size_t grid_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long sum = 0;
  while (i + (kLoadsInFlight - 1) * grid_threads < n) {
    int x[kLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) x[k] = input[i + k * grid_threads];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) sum += square(x[k]);
    i += kLoadsInFlight * grid_threads;
  }
  for (; i < n; i += grid_threads) sum += square(input[i]);
  const unsigned lanes = blockDim.x < 32 ? blockDim.x : 32;  // a power of two
  const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned offset = lanes / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));
  }
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane == 0) block_sums[warp] = sum;  // one total per warp
  __syncthreads();  // every warp's total is stored before warp 0 reads them
  if (warp == 0) {
    const unsigned warps = course::ceil_div(blockDim.x, 32u);  // a partial warp counts too
    sum = lane < warps ? block_sums[lane] : 0;
    for (unsigned offset = lanes / 2; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));
    }
    if (lane == 0) partials[blockIdx.x] = sum;
  }
