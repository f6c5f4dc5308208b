// ALTERNATIVE 01.5 step5_block_reduction.cu
// Loads counted per thread in batches of kLoadsInFlight, then the classic interleaved tree:
// at distance s = 1, 2, 4, ... thread t (a multiple of 2s) adds slot t + s, finished at the
// level before; t + s < blockDim.x because blockDim.x is a power of two. Barrier after each level.
// @region
  const std::size_t grid_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t mine = first < n ? (n - 1 - first) / grid_threads + 1 : 0;
  unsigned long long sum = 0;
  std::size_t r = 0;
  for (; r + kLoadsInFlight <= mine; r += kLoadsInFlight) {
    int x[kLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) x[k] = input[first + (r + k) * grid_threads];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) sum += square(x[k]);
  }
  for (; r < mine; ++r) sum += square(input[first + r * grid_threads]);
  block_sums[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (threadIdx.x % (2 * s) == 0) block_sums[threadIdx.x] += block_sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];
