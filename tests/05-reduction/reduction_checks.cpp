#include "reduction_checks.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "course/device_buffer.hpp"
#include "course/guarded_buffer.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"

namespace reduction::testing {

template <typename T>
const std::vector<T>& test_input(std::size_t n, std::uint64_t seed) {
  static std::map<std::pair<std::size_t, std::uint64_t>, std::unique_ptr<std::vector<T>>> cache;
  auto& slot = cache[{n, seed}];
  if (!slot) {
    if constexpr (std::is_integral_v<T>) {
      slot = std::make_unique<std::vector<T>>(course::random_ints(n, -16, 16, seed));
    } else {
      const auto values = course::random_doubles(n, -1.0, 1.0, seed);
      slot = std::make_unique<std::vector<T>>(values.begin(), values.end());
    }
  }
  return *slot;
}

const std::vector<std::size_t>& test_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    std::vector<std::size_t> s = {1, 2, 31, 32, 33, 1023, 1024, 1025, 4096};
    if (!course::under_sanitizer()) {
      s.push_back((1u << 20) + 3);
      s.push_back(1u << 26);
    }
    return s;
  }();
  return sizes;
}

template <typename T>
::testing::AssertionResult matches_cpu(const PassUnderTest& under_test, PassFn<T> pass,
                                       std::size_t n, int block_size, std::uint64_t seed) {
  const std::vector<T>& input = test_input<T>(n, seed);
  // Between margins of NaN (floats) or 0x5EADBEEF (ints): a read past the end shows in the sum.
  const course::GuardedBuffer<T> device_input(input);
  Workspace<T> workspace;
  const T got = reduce(pass, under_test.elements_per_thread, device_input.data(), n, block_size,
                       workspace);
  const long double expected = cpu_sum(input);
  const double bound = rounding_error_bound(input);
  const long double error = std::fabs(static_cast<long double>(got) - expected);
  const std::string margins = workspace.margin_report();
  if (std::isfinite(static_cast<double>(got)) && error <= bound && margins.empty()) {
    return ::testing::AssertionSuccess();
  }
  std::ostringstream message;
  message << under_test.name << "<" << course::type_name<T>() << ">, n = " << n << ", block size "
          << block_size << ": the sum is " << course::exact_text(got) << ", the CPU says "
          << course::exact_text(static_cast<double>(expected));
  if (bound > 0) message << " (allowed error " << bound << ")";
  message << ".\n  Edit: " << under_test.source_file;
  std::string diagnosis;
  if (!margins.empty()) {
    diagnosis = "the kernel " + margins;
  } else if (!std::isfinite(static_cast<double>(got))) {
    diagnosis = "NaN: the test surrounds the input with NaN, so a load read past its end "
                "(a bounds test on the wrong index?)";
  } else if (n > 1 && got == input[0]) {
    diagnosis = "the result is the first element alone: nothing was ever added into it (is the "
                "TODO still open, or does the tree stop before its last level?)";
  } else if (const int reads = std::is_integral_v<T> ? course::guard_reads_explaining(
                                   static_cast<long long>(got) - static_cast<long long>(expected))
                                                     : 0) {
    diagnosis = "the sum is off by exactly " + std::to_string(reads) +
                " times 0x5EADBEEF, the value the test puts around the input: a load read " +
                std::to_string(reads) + " element(s) past its end";
  } else {
    Workspace<T> again;
    const T second = reduce(pass, under_test.elements_per_thread, device_input.data(), n,
                            block_size, again);
    if (!(second == got)) {
      diagnosis = "a second run gave " + course::exact_text(second) +
                  ": the result changes from run to run, a race (a missing __syncthreads()?)";
    }
  }
  if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
  return ::testing::AssertionFailure() << message.str();
}

#define REDUCTION_CHECKS_FOR(T)                                                           \
  template const std::vector<T>& test_input<T>(std::size_t, std::uint64_t);              \
  template ::testing::AssertionResult matches_cpu<T>(const PassUnderTest&, PassFn<T>,    \
                                                     std::size_t, int, std::uint64_t);
REDUCTION_CHECKS_FOR(int)
REDUCTION_CHECKS_FOR(float)
REDUCTION_CHECKS_FOR(double)

}  // namespace reduction::testing
