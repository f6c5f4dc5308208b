// Device helpers for the sum-of-squares kernels.
#pragma once

#include "course/device_clock.cuh"

namespace sum_of_squares {

// x*x exactly: the int is widened BEFORE the multiply (an int*int product overflows as soon as
// |x| > 46340), then reinterpreted as unsigned so that sums wrap modulo 2^64 (defined behaviour).
__device__ __forceinline__ unsigned long long square(int x) {
  const long long wide = x;
  return static_cast<unsigned long long>(wide * wide);
}

}  // namespace sum_of_squares
