// ALTERNATIVE 00.3 step3_saxpy.cu
// The element number as a 32-bit unsigned int: the built-in variables are unsigned, so the
// arithmetic is too, and it holds up to 2^32 - 1, more than the threads of any grid step 4
// makes (at most INT_MAX + 1023). (A grid of more than 2^32 threads would wrap it; a 64-bit
// index holds any grid.) n is never negative, so comparing it as unsigned is safe.
// @region
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned int>(n)) y[i] = a * x[i] + y[i];
