// Device helpers for the sum-of-squares kernels.
#pragma once

#include "course/device_clock.cuh"

namespace sum_of_squares {

// x*x exactly, as an unsigned 64-bit number: sums of squares then wrap modulo 2^64, which
// unsigned arithmetic defines (and the tests expect).
__device__ __forceinline__ unsigned long long square(int x) {
  const long long wide = x;
  return static_cast<unsigned long long>(wide * wide);
}

}  // namespace sum_of_squares
