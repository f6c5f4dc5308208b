#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "course/compare.hpp"
#include "course/random.hpp"

using course::compare_exact;
using course::compare_within;

TEST(CompareExact, AcceptsEqualVectors) {
  const std::vector<int> values = {1, -2, 3};
  const auto report = compare_exact(values, values);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.checked, 3u);
}

TEST(CompareExact, ReportsTheFirstMismatchesWithTheirIndex) {
  const std::vector<int> expected = {1, 2, 3, 4};
  const std::vector<int> got = {1, 2, 30, 4};
  const auto report = compare_exact(expected, got);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.mismatches, 1u);
  const std::string text = report.text();
  EXPECT_NE(text.find("[2]: expected 3, got 30"), std::string::npos) << text;
}

TEST(CompareExact, ShowsRowAndColumnForMatrices) {
  const std::vector<int> expected = {1, 2, 3, 4, 5, 6};
  std::vector<int> got = expected;
  got[4] = 0;
  const std::string text = compare_exact(expected, got, 3).text();
  EXPECT_NE(text.find("(row 1, col 1)"), std::string::npos) << text;
}

TEST(CompareExact, LimitsTheListToTheFirstFew) {
  const std::vector<int> expected(100, 1);
  const std::vector<int> got(100, 2);
  const auto report = compare_exact(expected, got);
  EXPECT_EQ(report.mismatches, 100u);
  EXPECT_EQ(report.first.size(), course::kMismatchesShown);
}

TEST(CompareExact, DiagnosesAnOutputThatWasNeverWritten) {
  const std::vector<unsigned long long> expected = {5, 6, 7};
  const std::vector<unsigned long long> got(3, course::poison_value<unsigned long long>());
  const auto report = compare_exact(expected, got);
  EXPECT_EQ(report.unwritten, 3u);
  EXPECT_NE(report.diagnosis.find("no element was written"), std::string::npos);
}

TEST(CompareExact, DiagnosesAPartlyUnwrittenOutput) {
  const std::vector<long long> expected = {5, 6, 7, 8};
  const std::vector<long long> got = {5, 6, -1, -1};
  const auto report = compare_exact(expected, got);
  EXPECT_EQ(report.unwritten, 2u);
  EXPECT_NE(report.diagnosis.find("2 elements were never written"), std::string::npos)
      << report.diagnosis;
}

TEST(CompareExact, ReportsDifferentSizes) {
  const auto report = compare_exact(std::vector<int>{1, 2}, std::vector<int>{1});
  EXPECT_FALSE(report.ok());
  EXPECT_NE(report.diagnosis.find("1 elements"), std::string::npos) << report.diagnosis;
}

// compare_within's own bounds: test_matmul_reference.cpp. Here: what it shares with
// compare_exact (NaN and poison told apart, the diagnoses).
TEST(CompareWithin, AlwaysRejectsNanAndInf) {
  const std::vector<double> expected = {1.0, 2.0};
  const std::vector<float> got = {std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity()};
  const auto report = compare_within(expected, got, {1e30, 1e30});
  EXPECT_EQ(report.mismatches, 2u);
  EXPECT_EQ(report.non_finite, 2u);
  EXPECT_NE(report.diagnosis.find("NaN or Inf"), std::string::npos) << report.diagnosis;
}

TEST(CompareWithin, TellsPoisonFromAnOrdinaryNan) {
  const std::vector<double> expected = {1.0, 2.0};
  const std::vector<float> got = {course::poison_value<float>(),
                                  std::numeric_limits<float>::quiet_NaN()};
  const auto report = compare_within(expected, got, {1e-6, 1e-6});
  EXPECT_EQ(report.unwritten, 1u);
  EXPECT_EQ(report.non_finite, 1u);
}

TEST(CompareWithin, DiagnosesATransposedMatrix) {
  const std::vector<double> expected = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> got = {1, 4, 7, 2, 5, 8, 3, 6, 9};
  const auto report = compare_within(expected, got, std::vector<double>(9, 1e-6), 3);
  EXPECT_NE(report.diagnosis.find("transpose"), std::string::npos) << report.text();
}
