#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "course/compare.hpp"
#include "course/matmul.hpp"

using course::matmul::Shape;

TEST(MatmulReference, MultipliesRowMajorMatrices) {
  // [1 2 3]   [1 0]   [ 4  8]
  // [4 5 6] x [0 1] = [10 17]
  //           [1 2]
  const auto ref = course::matmul::cpu_reference({1, 2, 3, 4, 5, 6}, {1, 0, 0, 1, 1, 2},
                                                 Shape{2, 3, 2});
  EXPECT_EQ(ref.product, (std::vector<double>{4, 8, 10, 17}));
}

TEST(MatmulReference, BoundGrowsWithTheInnerDimensionAndTheMagnitudes) {
  const auto small = course::matmul::cpu_reference({1, -1}, {1, 1}, Shape{1, 2, 1});
  EXPECT_EQ(small.product[0], 0.0);  // cancellation: the bound still allows rounding
  EXPECT_GT(small.error_bound[0], 0.0);
  const double u = std::ldexp(1.0, -24);
  EXPECT_NEAR(small.error_bound[0], 4 * u / (1 - 4 * u) * 2.0, 1e-20);  // gamma_(k+2) * sum|terms|
  const std::vector<float> ones(1000, 1.0f);
  const auto large = course::matmul::cpu_reference(ones, ones, Shape{1, 1000, 1});
  EXPECT_GT(large.error_bound[0], 1000 * small.error_bound[0]);
}

TEST(MatmulReference, RejectsSizesThatDoNotMatchTheShape) {
  EXPECT_THROW(course::matmul::cpu_reference({1, 2}, {1, 2}, Shape{2, 2, 2}),
               std::invalid_argument);
}

TEST(MatmulShape, DescribesItselfAndCountsFlops) {
  EXPECT_EQ(Shape::square(33).text(), "Width 33");
  EXPECT_EQ((Shape{33, 17, 65}).text(), "33x17x65");
  EXPECT_EQ(course::matmul::flops(Shape::square(1024)), 2.0 * 1024 * 1024 * 1024);
}

TEST(RandomMatrix, HasMixedSignsWithinMinusOneToOne) {
  const auto m = course::matmul::random_matrix(30, 40, 1);
  ASSERT_EQ(m.size(), 1200u);
  int negative = 0;
  for (float v : m) {
    ASSERT_GE(v, -1.0f);
    ASSERT_LT(v, 1.0f);
    negative += v < 0;
  }
  EXPECT_GT(negative, 400);
  EXPECT_LT(negative, 800);
}

TEST(CompareWithin, UsesTheBoundOfEachElement) {
  const std::vector<double> expected = {1.0, 1.0};
  const std::vector<float> got = {1.5f, 1.5f};
  EXPECT_EQ(course::compare_within(expected, got, {0.6, 0.4}).mismatches, 1u);
  EXPECT_TRUE(course::compare_within(expected, got, {0.6, 0.6}).ok());
}

TEST(CompareWithin, ReportsRowAndColumnAndRejectsNan) {
  const std::vector<double> expected = {1, 2, 3, 4};
  const std::vector<float> got = {1, 2, 3, NAN};
  const auto report = course::compare_within(expected, got, {0.1, 0.1, 0.1, 1e30}, 2);
  EXPECT_EQ(report.non_finite, 1u);
  EXPECT_NE(report.text().find("(row 1, col 1)"), std::string::npos) << report.text();
}
