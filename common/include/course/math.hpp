// Small integer helpers shared by every launcher's grid arithmetic.
#pragma once

#include <cstddef>
#include <type_traits>

namespace course {

// ceil(a / b) for positive integers: the number of blocks that cover `a` items, `b` per block.
template <typename T>
constexpr T ceil_div(T a, T b) {
  static_assert(std::is_integral_v<T>, "ceil_div is for integers");
  return (a + b - 1) / b;
}

template <typename T>
constexpr bool is_power_of_two(T value) {
  static_assert(std::is_integral_v<T>, "is_power_of_two is for integers");
  return value > 0 && (value & (value - 1)) == 0;
}

}  // namespace course
