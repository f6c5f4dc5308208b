// ALTERNATIVE 01.4 step4_grid_stride.cu
// The grid walks the input in windows of G = gridDim.x * blockDim.x elements; block b's slice
// of each window starts at b * blockDim.x. Same elements per thread as g, g + G, ...; 64-bit
// arithmetic throughout, so any grid the launcher accepts is right.
// @region
  const std::size_t window = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t block_start = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  unsigned long long sum = 0;
  for (std::size_t base = block_start; base < n; base += window) {
    const std::size_t i = base + threadIdx.x;
    if (i < n) sum += square(input[i]);
  }
  partials[block_start + threadIdx.x] = sum;
