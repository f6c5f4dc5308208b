// ALTERNATIVE 01.2 step2_contiguous_chunks.cu
// The chunk length from course::ceil_div in the kernel, and a loop over the chunk's offsets that
// stops at the first index past n; a thread whose chunk starts past n stores 0.
// @region
  const std::size_t chunk = course::ceil_div(n, blockDim.x);
  unsigned long long sum = 0;
  for (std::size_t k = 0; k < chunk; ++k) {
    const std::size_t i = threadIdx.x * chunk + k;
    if (i >= n) break;
    sum += square(input[i]);
  }
  partials[threadIdx.x] = sum;
