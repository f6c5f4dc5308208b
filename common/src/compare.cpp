#include "course/compare.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "course/random.hpp"

namespace course {

namespace {

template <typename T>
std::string to_text(T value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

template <typename T>
bool is_poisoned(T value) {
  const T poison = poison_value<T>();
  if constexpr (std::is_floating_point_v<T>) {
    // 0xFF bytes make a NaN with all payload bits set; an ordinary NaN does not look like it.
    return std::memcmp(&value, &poison, sizeof value) == 0;
  } else {
    return value == poison;
  }
}

template <typename Expected, typename Got>
bool is_transpose_of(const std::vector<Expected>& expected, const std::vector<Got>& got,
                     std::size_t width, double tolerance) {
  if (width == 0 || expected.size() != width * width || width < 2) return false;
  for (std::size_t r = 0; r < width; ++r) {
    for (std::size_t c = 0; c < width; ++c) {
      const double e = static_cast<double>(expected[c * width + r]);
      const double g = static_cast<double>(got[r * width + c]);
      if (!(std::fabs(g - e) <= tolerance * std::max(std::fabs(e), 1.0))) return false;
    }
  }
  return true;
}

// Walks both vectors with `element_ok` and fills a report (everything but the diagnosis).
template <typename Expected, typename Got, typename ElementOk>
ComparisonReport compare_with(const std::vector<Expected>& expected, const std::vector<Got>& got,
                              std::size_t row_width, ElementOk element_ok) {
  ComparisonReport report;
  report.row_width = row_width;
  if (expected.size() != got.size()) {
    report.mismatches = std::max(expected.size(), got.size());
    report.diagnosis = "the result has " + std::to_string(got.size()) + " elements, the " +
                       "reference " + std::to_string(expected.size());
    return report;
  }
  report.checked = expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (element_ok(expected[i], got[i])) continue;
    ++report.mismatches;
    if (is_poisoned(got[i])) {
      ++report.unwritten;
    } else if constexpr (std::is_floating_point_v<Got>) {
      if (!std::isfinite(got[i])) ++report.non_finite;
    }
    if (report.first.size() < kMismatchesShown) {
      report.first.push_back({i, to_text(expected[i]), to_text(got[i])});
    }
  }
  return report;
}

template <typename Expected, typename Got>
void diagnose(ComparisonReport& report, const std::vector<Expected>& expected,
              const std::vector<Got>& got, double tolerance) {
  if (report.ok() || !report.diagnosis.empty()) return;
  if (report.unwritten == report.checked) {
    report.diagnosis =
        "no element was written: is the kernel still a TODO, or was it never launched?";
  } else if (report.unwritten > 0) {
    report.diagnosis = std::to_string(report.unwritten) +
                       " elements were never written: the grid does not cover the whole "
                       "output, or a bounds check is too strict";
  } else if (report.non_finite > 0) {
    report.diagnosis = std::to_string(report.non_finite) +
                       " elements are NaN or Inf: a read of uninitialised or out-of-range memory?";
  } else if (is_transpose_of(expected, got, report.row_width, tolerance)) {
    report.diagnosis = "the result is the transpose of the reference: row and column swapped";
  } else if (report.row_width > 0 && !report.first.empty()) {
    const std::size_t first_row = report.first.front().index / report.row_width;
    const std::size_t rows = report.checked / report.row_width;
    if (rows > 1 && first_row == rows - 1) {
      report.diagnosis = "only the last row is wrong: look at the edge of the matrix";
    }
  }
}

}  // namespace

std::string ComparisonReport::text() const {
  std::ostringstream out;
  if (ok()) {
    out << "all " << checked << " elements match";
    return out.str();
  }
  out << mismatches << " of " << checked << " elements differ";
  if (unwritten > 0) out << " (" << unwritten << " never written)";
  if (non_finite > 0) out << " (" << non_finite << " NaN/Inf)";
  for (const Mismatch& m : first) {
    out << "\n  at ";
    if (row_width > 0) {
      out << "(row " << m.index / row_width << ", col " << m.index % row_width << ")";
    } else {
      out << "[" << m.index << "]";
    }
    out << ": expected " << m.expected << ", got " << m.got;
  }
  if (mismatches > first.size() && !first.empty()) out << "\n  ...";
  if (!diagnosis.empty()) out << "\n  diagnosis: " << diagnosis;
  return out.str();
}

template <typename T>
static ComparisonReport exact(const std::vector<T>& expected, const std::vector<T>& got,
                              std::size_t row_width) {
  ComparisonReport report =
      compare_with(expected, got, row_width, [](T e, T g) { return e == g; });
  diagnose(report, expected, got, 0.0);
  return report;
}

ComparisonReport compare_exact(const std::vector<long long>& expected,
                               const std::vector<long long>& got, std::size_t row_width) {
  return exact(expected, got, row_width);
}
ComparisonReport compare_exact(const std::vector<unsigned long long>& expected,
                               const std::vector<unsigned long long>& got,
                               std::size_t row_width) {
  return exact(expected, got, row_width);
}
ComparisonReport compare_exact(const std::vector<int>& expected, const std::vector<int>& got,
                               std::size_t row_width) {
  return exact(expected, got, row_width);
}

ComparisonReport compare_within(const std::vector<double>& expected, const std::vector<float>& got,
                                const std::vector<double>& bound, std::size_t row_width) {
  if (bound.size() != expected.size()) {
    throw std::invalid_argument("compare_within: one bound per expected element is needed");
  }
  std::size_t i = 0;  // compare_with walks the elements in order
  ComparisonReport report = compare_with(expected, got, row_width, [&](double e, float g) {
    const double limit = bound[i++];
    const double value = g;
    return std::isfinite(value) && std::fabs(value - e) <= limit;
  });
  diagnose(report, expected, got, 1e-6);
  return report;
}

}  // namespace course
