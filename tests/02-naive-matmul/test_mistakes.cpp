// The tests have teeth: the checker that the exercise and the solution face rejects every
// known-wrong kernel in mistakes/. Each test prints what a learner with that bug would see.
#include <gtest/gtest.h>

#include <iostream>

#include "mistakes/mistakes.hpp"
#include "naive_matmul_cases.hpp"

namespace naive_matmul::testing {
namespace {

using Launcher = void (*)(const float*, const float*, float*, int, int);

struct KnownMistake {
  const char* name;
  Launcher launch;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake mistake = GetParam();
  const course::matmul::MatmulUnderTest under_test{
      std::string(mistake.name) + " (16x16 blocks)",
      std::string("tests/02-naive-matmul/mistakes/naive_matmul_mistakes.cu"),
      [mistake](const float* M, const float* N, float* P, course::matmul::Shape shape) {
        mistake.launch(M, N, P, shape.n, 16);
      }};
  for (int width : {1, 2, 3, 17, 33, 100}) {
    const ::testing::AssertionResult verdict =
        course::matmul::matches_cpu(under_test, course::matmul::Shape::square(width));
    if (!verdict) {
      std::cout << "Rejected as expected. What the learner sees:\n" << verdict.message() << "\n";
      return;
    }
  }
  FAIL() << mistake.name << " passed every check: the tests cannot catch this mistake";
}

INSTANTIATE_TEST_SUITE_P(Mistakes, KnownMistakes,
                         ::testing::Values(KnownMistake{"transposed_store", mistakes::transposed_store},
                                           KnownMistake{"missing_bounds_check",
                                                        mistakes::missing_bounds_check},
                                           KnownMistake{"n_indexed_by_row",
                                                        mistakes::n_indexed_by_row}),
                         [](const ::testing::TestParamInfo<KnownMistake>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace naive_matmul::testing
