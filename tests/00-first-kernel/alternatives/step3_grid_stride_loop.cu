// ALTERNATIVE 00.3 step3_saxpy.cu
// A grid-stride loop: each thread starts at its global index and steps by the whole grid's
// thread count. With a grid that covers n the loop runs at most once per thread, and its
// condition is the tail guard; with a smaller grid it still covers every element. The index
// is 64-bit, so that i + stride cannot overflow near INT_MAX.
// @region
  const long long stride = 1ll * gridDim.x * blockDim.x;
  for (long long i = 1ll * blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = a * x[i] + y[i];
  }
