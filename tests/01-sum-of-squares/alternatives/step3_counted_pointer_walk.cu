// ALTERNATIVE 01.3 step3_interleaved.cu
// Counts this thread's elements first (t, t + T, ... below n), then walks a pointer T ints at a
// time with a `while` loop, stopping before it would step past the last element.
// @region
  unsigned long long sum = 0;
  if (threadIdx.x < n) {
    std::size_t left = (n - 1 - threadIdx.x) / blockDim.x + 1;  // this thread's elements
    const int* p = input + threadIdx.x;
    while (true) {
      sum += square(*p);
      if (--left == 0) break;
      p += blockDim.x;
    }
  }
  partials[threadIdx.x] = sum;
