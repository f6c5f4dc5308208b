// The tests have teeth: the checker that the exercise and the solution face rejects every
// known-wrong kernel in mistakes/, by the numbers (the matrices sit between NaN margins) or, where
// the numbers come out right, by compute-sanitizer (the Meson test "compute-sanitizer catches the
// known mistakes"). Each test prints what a learner with that bug would see.
#include <gtest/gtest.h>

#include <iostream>

#include "course/testing.hpp"
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

// The first rejection of `mistake` with block_side x block_side blocks, or "" if it passed.
std::string first_rejection(const KnownMistake& mistake, int block_side) {
  const course::matmul::MatmulUnderTest under_test{
      std::string(mistake.name) + " (" + std::to_string(block_side) + "x" +
          std::to_string(block_side) + " blocks)",
      std::string("tests/02-naive-matmul/mistakes/naive_matmul_mistakes.cu"),
      [mistake, block_side](const float* M, const float* N, float* P, course::matmul::Shape s) {
        mistake.launch(M, N, P, s.n, block_side);
      }};
  for (int width : {1, 2, 3, 17, 33, 100}) {
    const ::testing::AssertionResult verdict =
        course::matmul::matches_cpu(under_test, course::matmul::Shape::square(width));
    if (!verdict) return verdict.message();
  }
  return "";
}

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  EXPECT_TRUE(course::shows_the_rejection(first_rejection(GetParam(), 16)))
      << GetParam().name << " passed every check: the tests cannot catch this mistake";
}

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const KnownMistake& mistake, int block_side, const char* tool) {
  course::report_what_the_numbers_showed(mistake.name, first_rejection(mistake, block_side), tool);
}

TEST(MistakesSeenBySanitizers, OnlyTheStoreGuarded) {
  report_numbers({"only_the_store_guarded", mistakes::only_the_store_guarded}, 16, "memcheck");
}

TEST(MistakesSeenBySanitizers, RowSharedWithoutSyncwarp) {
  report_numbers({"row_shared_without_syncwarp", mistakes::row_shared_without_syncwarp}, 32,
                 "racecheck");
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
