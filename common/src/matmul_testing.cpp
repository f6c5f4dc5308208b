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

bool is_poison(float value) {
  const float poison = poison_value<float>();
  return std::memcmp(&value, &poison, sizeof value) == 0;
}

// A device copy of `host` with `guard` poisoned elements before and after it.
DeviceBuffer<float> guarded(const std::vector<float>& host, std::size_t guard) {
  std::vector<float> padded(guard, poison_value<float>());
  padded.insert(padded.end(), host.begin(), host.end());
  padded.insert(padded.end(), guard, poison_value<float>());
  return DeviceBuffer<float>(padded);
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
  DeviceBuffer<float> M = guarded(c.M, guard);
  DeviceBuffer<float> N = guarded(c.N, guard);
  DeviceBuffer<float> P = guarded(std::vector<float>(p_size, poison_value<float>()), guard);

  matmul.run(M.data() + guard, N.data() + guard, P.data() + guard, shape);
  COURSE_CHECK(cudaDeviceSynchronize());

  const std::vector<float> all = P.to_host();
  const std::vector<float> got(all.begin() + guard, all.begin() + guard + p_size);
  std::size_t outside = 0;
  for (std::size_t i = 0; i < guard; ++i) {
    outside += !is_poison(all[i]) + !is_poison(all[guard + p_size + i]);
  }
  const ComparisonReport report =
      compare_within(c.reference.product, got, c.reference.error_bound, shape.n);
  if (report.ok() && outside == 0) return ::testing::AssertionSuccess();

  std::ostringstream message;
  message << matmul.name << ", " << shape.text() << ": " << report.text();
  if (outside > 0) {
    message << "\n  " << outside << " elements were written OUTSIDE P (past its end or before "
            << "its start): threads outside the matrix must not store (a missing bounds check?)";
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
