#include "course/matmul_testing.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "course/compare.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"

namespace course::matmul {

namespace {

struct Case {
  std::vector<float> M, N;
  Reference reference;
};

// The CPU reference of a 1000-wide product takes about a second: compute it once per shape
// and seed, however many kernels or block sizes are checked against it.
const Case& case_for(Shape shape, std::uint64_t seed) {
  static std::map<std::tuple<int, int, int, std::uint64_t>, std::unique_ptr<Case>> cache;
  auto& slot = cache[{shape.m, shape.k, shape.n, seed}];
  if (!slot) {
    slot = std::make_unique<Case>();
    slot->M = random_matrix(shape.m, shape.k, seed);
    slot->N = random_matrix(shape.k, shape.n, seed + 1);
    slot->reference = cpu_reference(slot->M, slot->N, shape);
  }
  return *slot;
}

}  // namespace

std::size_t guard_elements(Shape shape) {
  const std::size_t widest = std::max({shape.m, shape.k, shape.n});
  return 32 * (widest + 32);
}

::testing::AssertionResult matches_cpu(const MatmulUnderTest& matmul, Shape shape,
                                       std::uint64_t seed) {
  const Case& c = case_for(shape, seed);
  const std::size_t guard = guard_elements(shape);
  const std::size_t p_size = static_cast<std::size_t>(shape.m) * shape.n;
  // Between NaN margins (none under compute-sanitizer, where memcheck sees the access itself).
  const GuardedBuffer<float> M(c.M, guard), N(c.N, guard);
  GuardedBuffer<float> P(p_size, guard);
  P.fill_bytes(kPoisonByte);

  matmul.run(M.data(), N.data(), P.data(), shape);
  COURSE_CHECK(cudaDeviceSynchronize());

  const std::vector<float> got = P.to_host();
  const MarginReport outside = P.check_margins();
  const ComparisonReport report =
      compare_within(c.reference.product, got, c.reference.error_bound, shape.n);
  if (report.ok() && outside.ok()) return ::testing::AssertionSuccess();

  std::ostringstream message;
  message << matmul.name << ", " << shape.text() << ": " << report.text();
  if (!outside.ok()) {
    message << "\n  The kernel " << outside.text("P")
            << " (threads outside the matrix must not store)";
  }
  if (report.mismatches == report.checked &&
      std::all_of(got.begin(), got.end(), [](float v) { return v == 0.0f; })) {
    message << "\n  Every element is 0: the products were never added up (is the TODO still open?)";
  }
  if (report.non_finite > 0 && report.unwritten < report.mismatches) {
    message << "\n  NaN in the result often means a read outside M or N: the test surrounds "
            << "them with NaN so such reads show.";
  }
  message << "\n  Edit: " << matmul.source_file;
  return ::testing::AssertionFailure() << message.str();
}

}  // namespace course::matmul
