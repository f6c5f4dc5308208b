// Matrix multiplication pieces shared by the matmul chapters (02, 03, 04, 07): shapes, the CPU
// reference in double precision, and the error bound that a float result must meet.
//
// Convention (PMPP): P = M x N, all row-major; M is m x k, N is k x n, P is m x n. The square
// chapters use m = k = n = Width.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace course::matmul {

struct Shape {
  int m = 0;  // rows of M and P
  int k = 0;  // columns of M, rows of N: the length of every inner product
  int n = 0;  // columns of N and P
  static Shape square(int width) { return {width, width, width}; }
  std::string text() const;  // "33x17x65" (m x k x n), or "Width 33" when square
};

// 2 m n k: one multiply and one add per term of every inner product.
double flops(Shape shape);

// The argument checks every rectangular matmul entry point makes (chapters 04 and 07):
// every size at least 1, every matrix indexable with a 32-bit int, no null pointer. Throws
// std::invalid_argument "<function>: <what is wrong and what to pass>".
void check_operands(const char* function, const float* M, const float* N, const float* P,
                    Shape shape);

// The exact product (in double, from the same float inputs) and, for every element, how far a
// float computation may be from it. The bound is the classic one for a dot product of length
// k computed in floating point (Higham, Accuracy and Stability of Numerical Algorithms, 3.1):
//   |fl(P_ij) - P_ij| <= gamma_k * sum_k |M_ik| |N_kj|,  gamma_k = k u / (1 - k u),
// u = 2^-24 for float; it holds for any summation order and with or without fused
// multiply-adds. We allow gamma_(k+2) for the final rounding and the double reference itself.
struct Reference {
  std::vector<double> product;      // m x n
  std::vector<double> error_bound;  // m x n, absolute
};
Reference cpu_reference(const std::vector<float>& M, const std::vector<float>& N, Shape shape);

// Seeded random matrix with entries in [-1, 1): non-uniform, never constant, signs mixed so
// inner products cancel as they do in real data.
std::vector<float> random_matrix(int rows, int columns, std::uint64_t seed);

}  // namespace course::matmul
