#include "tensor_core_gemm_testing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <tuple>

#include "course/compare.hpp"
#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"
#include "course/rounding.hpp"
#include "tensor_core_gemm.cuh"

namespace tensor_core_gemm::testing {

namespace {

struct Case {
  std::vector<__half> A, B;
  std::vector<double> product, bound;
};

// The reference of a 1000-wide product takes about a second: once per shape and seed.
const Case& case_for(Shape s, std::uint64_t seed) {
  static std::map<std::tuple<int, int, int, std::uint64_t>, std::unique_ptr<Case>> cache;
  auto& slot = cache[{s.m, s.k, s.n, seed}];
  if (slot) return *slot;
  slot = std::make_unique<Case>();
  Case& c = *slot;
  c.A = random_halves(s.m, s.k, seed);
  c.B = random_halves(s.k, s.n, seed + 1);
  std::vector<double> a(c.A.size()), b(c.B.size());
  std::transform(c.A.begin(), c.A.end(), a.begin(), [](__half h) { return double(__half2float(h)); });
  std::transform(c.B.begin(), c.B.end(), b.begin(), [](__half h) { return double(__half2float(h)); });
  c.product.assign(static_cast<std::size_t>(s.m) * s.n, 0.0);
  c.bound.assign(c.product.size(), 0.0);
  std::vector<double> magnitude(s.n);
  const double gamma_depth = static_cast<double>(2 * (s.k + 2));
  for (int i = 0; i < s.m; ++i) {
    double* row = c.product.data() + static_cast<std::size_t>(i) * s.n;
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    for (int p = 0; p < s.k; ++p) {
      const double x = a[static_cast<std::size_t>(i) * s.k + p];
      const double* b_row = b.data() + static_cast<std::size_t>(p) * s.n;
      for (int j = 0; j < s.n; ++j) {
        row[j] += x * b_row[j];
        magnitude[j] += std::fabs(x * b_row[j]);
      }
    }
    for (int j = 0; j < s.n; ++j) {
      c.bound[static_cast<std::size_t>(i) * s.n + j] =
          course::summation_error_bound<float>(magnitude[j], static_cast<std::size_t>(gamma_depth));
    }
  }
  return c;
}

std::size_t guard_elements(Shape s) {
  const std::size_t widest = std::max({s.m, s.k, s.n});
  return 64 * (widest + 256);
}

}  // namespace

std::string Shape::text() const {
  return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
}

std::vector<__half> random_halves(int rows, int columns, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> fraction(0.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-6, 2), sign(0, 1);
  std::vector<__half> values(static_cast<std::size_t>(rows) * columns);
  for (__half& v : values) {
    const float x = std::ldexp(1.0f + fraction(engine), exponent(engine));
    v = __float2half_rn(sign(engine) ? -x : x);
  }
  return values;
}

void run_and_wait(const GemmUnderTest& gemm, const std::function<void()>& run) {
  cudaError_t status = cudaSuccess;
  try {
    run();
    status = cudaDeviceSynchronize();
  } catch (const course::CudaError& error) {
    status = error.code();
  }
  const std::string timeout = barrier_timeout_report();
  if (!timeout.empty()) {
    std::ostringstream message;
    message << gemm.name << ": the kernel did not finish within " << kWatchdogSeconds
            << " s: a barrier that is never completed? (" << timeout
            << "). Check which barrier each side waits on, with which parity, and that every "
               "byte expected is loaded.\n  Edit: "
            << gemm.source_file
            << "\n  The GPU stopped the kernel, which ends this test program: the other tests "
               "did not run.\n";
    std::cerr << message.str() << std::flush;
    std::_Exit(kBarrierTimeoutExit);
  }
  COURSE_CHECK(status);
}

::testing::AssertionResult matches_cpu(const GemmUnderTest& gemm, Shape shape,
                                       std::uint64_t seed) {
  const Case& c = case_for(shape, seed);
  const std::size_t guard = guard_elements(shape);
  const course::GuardedBuffer<__half> A(c.A, guard), B(c.B, guard);
  course::GuardedBuffer<float> C(static_cast<std::size_t>(shape.m) * shape.n, guard);
  C.fill_bytes(course::kPoisonByte);

  run_and_wait(gemm, [&] { gemm.run(A.data(), B.data(), C.data(), shape); });

  const std::vector<float> got = C.to_host();
  const course::MarginReport outside = C.check_margins();
  const course::ComparisonReport report =
      course::compare_within(c.product, got, c.bound, static_cast<std::size_t>(shape.n));
  if (report.ok() && outside.ok()) return ::testing::AssertionSuccess();

  std::ostringstream message;
  message << gemm.name << ", " << shape.text() << " (m x k x n): " << report.text();
  if (!outside.ok()) {
    message << "\n  The kernel " << outside.text("C")
            << " (lanes whose results lie outside C must not store)";
  }
  if (report.mismatches == report.checked &&
      std::all_of(got.begin(), got.end(), [](float v) { return v == 0.0f; })) {
    message << "\n  Every element is 0: the products were never added up (is a TODO still "
               "open?)";
  }
  if (report.non_finite > 0 && report.unwritten < report.mismatches) {
    message << "\n  NaN in the result often means a read outside A or B (the test surrounds "
               "them with NaN), or a shared tile read before it was written.";
  }
  if (!gemm.when_written_but_wrong.empty() && report.unwritten == 0 &&
      report.mismatches < report.checked) {
    message << "\n  " << gemm.when_written_but_wrong;
  }
  message << "\n  Edit: " << gemm.source_file;
  return ::testing::AssertionFailure() << message.str();
}

}  // namespace tensor_core_gemm::testing
