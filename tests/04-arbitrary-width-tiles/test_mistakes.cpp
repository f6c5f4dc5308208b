// The tests have teeth: the checker rejects the known-wrong boundary kernels in mistakes/, and
// prints what a learner with that bug would see. Some compute the right numbers anyway (an
// out-of-bounds read whose value is never used, a race inside one warp): the Meson test
// "compute-sanitizer catches the known mistakes" shows that compute-sanitizer does not let them
// pass.
#include <gtest/gtest.h>

#include <iostream>

#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"

namespace arbitrary_width_tiles {
namespace {

using Launcher = void (*)(const float*, const float*, float*, int, int);

course::matmul::MatmulUnderTest under_test(const char* name, Launcher launch) {
  return {std::string(name) + " (TILE_WIDTH 16)",
          "tests/04-arbitrary-width-tiles/mistakes/arbitrary_width_tiles_mistakes.cu",
          [launch](const float* M, const float* N, float* P, course::matmul::Shape shape) {
            launch(M, N, P, shape.n, 16);
          }};
}

struct KnownMistake {
  const char* name;
  Launcher launch;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

// The first rejection over a few widths (and rectangular shapes for step 4), or "".
std::string first_rejection(const course::matmul::MatmulUnderTest& under_test,
                            const std::vector<course::matmul::Shape>& shapes) {
  for (const course::matmul::Shape& shape : shapes) {
    const ::testing::AssertionResult verdict = course::matmul::matches_cpu(under_test, shape);
    if (!verdict) return verdict.message();
  }
  return "";
}

const std::vector<course::matmul::Shape> kSquares = {
    course::matmul::Shape::square(3), course::matmul::Shape::square(17),
    course::matmul::Shape::square(33), course::matmul::Shape::square(70)};

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake mistake = GetParam();
  EXPECT_TRUE(course::shows_the_rejection(
      first_rejection(under_test(mistake.name, mistake.launch), kSquares)))
      << mistake.name << " passed every check: the tests cannot catch this mistake";
}

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(KnownMistake{"loads_unguarded", mistakes::loads_unguarded},
                      KnownMistake{"tile_slots_not_zeroed", mistakes::tile_slots_not_zeroed},
                      KnownMistake{"store_unguarded", mistakes::store_unguarded}),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"
// (exact-size allocations there: no guard margins to make an out-of-bounds read legal); here they
// only have to run, and say whether the numbers showed the bug on this GPU.
TEST(MistakesSeenBySanitizers, OnlyLastPhaseGuarded) {
  course::report_what_the_numbers_showed(
      "only_last_phase_guarded",
      first_rejection(under_test("only_last_phase_guarded", mistakes::only_last_phase_guarded),
                      kSquares),
      "memcheck");
}

TEST(MistakesSeenBySanitizers, MTileStoredAfterTheBarrier) {
  course::report_what_the_numbers_showed(
      "m_tile_stored_after_the_barrier",
      first_rejection(
          under_test("m_tile_stored_after_the_barrier", mistakes::m_tile_stored_after_the_barrier),
          kSquares),
      "racecheck");
}

TEST(MistakesSeenBySanitizers, NRowGuardOffByOne) {
  const course::matmul::MatmulUnderTest rectangular{
      "n_row_guard_off_by_one (TILE_WIDTH 16)",
      "tests/04-arbitrary-width-tiles/mistakes/arbitrary_width_tiles_mistakes.cu",
      [](const float* M, const float* N, float* P, course::matmul::Shape s) {
        mistakes::n_row_guard_off_by_one(M, N, P, s.m, s.k, s.n);
      }};
  course::report_what_the_numbers_showed(
      "n_row_guard_off_by_one",
      first_rejection(rectangular, {{33, 17, 65}, {1, 1000, 1}, {7, 300, 5}}), "memcheck");
}

}  // namespace
}  // namespace arbitrary_width_tiles
