// Comparing a GPU result with a CPU reference, element by element, with a report that says
// where it went wrong: the first mismatches with their index (row, col for matrices), counts
// of unwritten (still poisoned) and non-finite elements, and a one-line diagnosis.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace course {

struct Mismatch {
  std::size_t index = 0;
  std::string expected;
  std::string got;
};

struct ComparisonReport {
  std::size_t checked = 0;
  std::size_t mismatches = 0;   // every wrong element, unwritten and non-finite ones included
  std::size_t unwritten = 0;    // still holding the poison value
  std::size_t non_finite = 0;   // NaN or Inf that the reference does not have
  std::vector<Mismatch> first;  // the first few, in index order
  std::string diagnosis;        // empty when nothing stands out
  std::size_t row_width = 0;    // > 0: indices are printed as (row, col)

  bool ok() const noexcept { return mismatches == 0; }
  // Multi-line, human-readable: the summary, the first mismatches, the diagnosis.
  std::string text() const;
};

inline constexpr std::size_t kMismatchesShown = 5;

// Integers: exact. `row_width` > 0 treats the vectors as row-major matrices of that width.
ComparisonReport compare_exact(const std::vector<long long>& expected,
                               const std::vector<long long>& got, std::size_t row_width = 0);
ComparisonReport compare_exact(const std::vector<unsigned long long>& expected,
                               const std::vector<unsigned long long>& got,
                               std::size_t row_width = 0);
ComparisonReport compare_exact(const std::vector<int>& expected, const std::vector<int>& got,
                               std::size_t row_width = 0);

// Floating point against a higher-precision reference, with a bound per element (for example
// course::summation_error_bound, course/rounding.hpp): element i passes when
// |got - expected| <= bound[i] (absolute). NaN and Inf always fail.
ComparisonReport compare_within(const std::vector<double>& expected, const std::vector<float>& got,
                                const std::vector<double>& bound, std::size_t row_width = 0);

}  // namespace course
