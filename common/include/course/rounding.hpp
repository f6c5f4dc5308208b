// How far a floating-point sum may be from the exact one: the classic bound for a sum computed
// in any order (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., 3.1 and 4.2).
// If every term goes through at most L roundings on its way into the result (the depth of the
// summation: additions, or the multiply-adds of a dot product), then
//   |computed - exact| <= gamma_L * sum |x_i|,   gamma_L = L u / (1 - L u),
// u the unit roundoff of the type (2^-24 for float, 2^-53 for double). Every chapter that checks
// a float sum or product uses these; each says what its own L is.
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>

namespace course {

// gamma_L for the floating-point type T: meaningful while L u < 1.
template <typename T>
double rounding_gamma(std::size_t depth) {
  static_assert(std::is_floating_point_v<T>, "rounding_gamma is for floating-point types");
  const double u = std::numeric_limits<T>::epsilon() / 2;  // unit roundoff
  const double L = static_cast<double>(depth);
  return L * u / (1.0 - L * u);
}

// gamma_L * magnitude, magnitude = sum |x_i|: the allowed |computed - exact| for a sum of depth
// L in T. Integers add exactly: 0.
template <typename T>
double summation_error_bound(long double magnitude, std::size_t depth) {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else {
    return rounding_gamma<T>(depth) * static_cast<double>(magnitude);
  }
}

}  // namespace course
