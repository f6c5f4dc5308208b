// ALTERNATIVE 09.1 step1_block_scan.cu
// Kogge-Stone in one buffer with two barriers per round (PMPP's form): every thread reads the
// value it needs, the block waits, then every thread writes, and the block waits again. The
// reads of a round all happen before any of its writes. Brent-Kung with its index written as the
// PMPP "index = 2 * stride * (t + 1) - 1" loop, in a while form.
// @region
  buffers[threadIdx.x] = value;
  __syncthreads();
  for (unsigned distance = 1; distance < blockDim.x; distance <<= 1) {
    T add = T(0);
    if (threadIdx.x >= distance) add = buffers[threadIdx.x - distance];
    __syncthreads();  // every read of this round is done before any write
    if (threadIdx.x >= distance) buffers[threadIdx.x] += add;
    __syncthreads();  // every write is done before the next round reads
  }
  value = buffers[threadIdx.x];
// @region
  const unsigned count = 2 * blockDim.x;
  unsigned stride = 1;
  while (stride < count) {
    __syncthreads();
    const unsigned index = 2 * stride * (threadIdx.x + 1) - 1;
    if (index < count) data[index] += data[index - stride];
    stride *= 2;
  }
  stride = count / 4;
  while (stride > 0) {
    __syncthreads();
    const unsigned index = 2 * stride * (threadIdx.x + 1) - 1;
    if (index + stride < count) data[index + stride] += data[index];
    stride /= 2;
  }
  __syncthreads();
