// Small integer helpers shared by every launcher's grid arithmetic, on the host and (compiled
// by nvcc) in kernels too.
#pragma once

#include <cstddef>
#include <type_traits>

// __host__ __device__ where nvcc compiles the file (.cu), nothing for a plain C++ compiler
// (.cpp files include this header too).
#ifndef COURSE_HOST_DEVICE
#if defined(__CUDACC__)
#define COURSE_HOST_DEVICE __host__ __device__
#else
#define COURSE_HOST_DEVICE
#endif
#endif

namespace course {

// The most blocks a grid holds along y (and z); x holds 2^31 - 1. A launcher that puts rows
// of blocks in gridDim.y must check its row count against this before it launches.
inline constexpr int kMaxGridDimY = 65535;

// ceil(a / b) for a >= 0 and b > 0: the number of blocks that cover `a` items, `b` per block.
// Written without a + b - 1, which overflows for `a` near the type's maximum (an int size of
// 2^31 - 1 is allowed wherever only the element count is limited). The two may differ in type
// (ceil_div(n, blockDim.x) with a std::size_t n): both are converted to their common type first.
template <typename T, typename U>
COURSE_HOST_DEVICE constexpr std::common_type_t<T, U> ceil_div(T a, U b) {
  static_assert(std::is_integral_v<T> && std::is_integral_v<U>, "ceil_div is for integers");
  using Common = std::common_type_t<T, U>;
  const Common x = static_cast<Common>(a);
  const Common y = static_cast<Common>(b);
  return x / y + (x % y != 0 ? 1 : 0);
}

template <typename T>
COURSE_HOST_DEVICE constexpr bool is_power_of_two(T value) {
  static_assert(std::is_integral_v<T>, "is_power_of_two is for integers");
  return value > 0 && (value & (value - 1)) == 0;
}

}  // namespace course
