// Small integer helpers shared by every launcher's grid arithmetic.
#pragma once

#include <cstddef>
#include <type_traits>

namespace course {

// The most blocks a grid holds along y (and z); x holds 2^31 - 1. A launcher that puts rows
// of blocks in gridDim.y must check its row count against this before it launches.
inline constexpr int kMaxGridDimY = 65535;

// ceil(a / b) for a >= 0 and b > 0: the number of blocks that cover `a` items, `b` per block.
// Written without a + b - 1, which overflows for `a` near the type's maximum (an int size of
// 2^31 - 1 is allowed wherever only the element count is limited).
template <typename T>
constexpr T ceil_div(T a, T b) {
  static_assert(std::is_integral_v<T>, "ceil_div is for integers");
  return a / b + (a % b != 0 ? 1 : 0);
}

template <typename T>
constexpr bool is_power_of_two(T value) {
  static_assert(std::is_integral_v<T>, "is_power_of_two is for integers");
  return value > 0 && (value & (value - 1)) == 0;
}

}  // namespace course
