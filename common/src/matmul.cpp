#include "course/matmul.hpp"

#include <climits>
#include <cmath>
#include <stdexcept>

#include "course/random.hpp"
#include "course/rounding.hpp"

namespace course::matmul {

std::string Shape::text() const {
  if (m == k && k == n) return "Width " + std::to_string(m);
  return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
}

double flops(Shape shape) { return 2.0 * shape.m * shape.n * static_cast<double>(shape.k); }

namespace {

[[noreturn]] void reject(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

void check_elements(const char* function, const char* matrix, int rows, int columns) {
  if (1ll * rows * columns > INT_MAX) {
    reject(function, std::string(matrix) + " has " + std::to_string(rows) + " x " +
                         std::to_string(columns) + " elements, more than a 32-bit int indexes "
                         "(2^31 - 1); split the product into smaller blocks");
  }
}

}  // namespace

void check_operands(const char* function, const float* M, const float* N, const float* P,
                    Shape shape) {
  const int m = shape.m, k = shape.k, n = shape.n;
  if (m < 1 || k < 1 || n < 1) {
    reject(function, "every size must be at least 1, got m = " + std::to_string(m) +
                         ", k = " + std::to_string(k) + ", n = " + std::to_string(n));
  }
  check_elements(function, "M", m, k);
  check_elements(function, "N", k, n);
  check_elements(function, "P", m, n);
  if (M == nullptr || N == nullptr || P == nullptr) {
    reject(function, "M, N and P must be device pointers, got a null pointer");
  }
}

Reference cpu_reference(const std::vector<float>& M, const std::vector<float>& N, Shape shape) {
  const std::size_t m = shape.m, k = shape.k, n = shape.n;
  if (M.size() != m * k || N.size() != k * n) {
    throw std::invalid_argument("cpu_reference: matrix sizes do not match the shape " +
                                shape.text());
  }
  Reference reference;
  reference.product.assign(m * n, 0.0);
  std::vector<double> absolute(m * n, 0.0);
  // i-k-j order: the inner loop walks rows of N and P, which is cache friendly.
  for (std::size_t i = 0; i < m; ++i) {
    double* p = &reference.product[i * n];
    double* a = &absolute[i * n];
    for (std::size_t kk = 0; kk < k; ++kk) {
      const double mik = M[i * k + kk];
      const float* row = &N[kk * n];
      for (std::size_t j = 0; j < n; ++j) {
        p[j] += mik * row[j];
        a[j] += std::fabs(mik * row[j]);
      }
    }
  }
  const double gamma = rounding_gamma<float>(k + 2);  // k multiply-adds, + 2: see matmul.hpp
  reference.error_bound.resize(m * n);
  for (std::size_t i = 0; i < m * n; ++i) {
    // The smallest normal float keeps a bound of 0 (all-zero row) from rejecting a -0.0.
    reference.error_bound[i] = gamma * absolute[i] + 1e-37;
  }
  return reference;
}

std::vector<float> random_matrix(int rows, int columns, std::uint64_t seed) {
  return random_floats(static_cast<std::size_t>(rows) * columns, -1.0f, 1.0f, seed);
}

}  // namespace course::matmul
