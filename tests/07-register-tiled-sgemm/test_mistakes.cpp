// The tests have teeth: every known-wrong kernel in mistakes/ is rejected, and each test prints
// what a learner with that bug would see (the README quotes them).
//  - by the numbers: Mistakes/KnownMistakes.*;
//  - by compute-sanitizer where the numbers may come out right: MistakesSeenBySanitizers.* run
//    the mistake and say what the numbers did; the Meson test "compute-sanitizer catches the known
//    mistakes" runs them under the tool that steps.json names and requires its report.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"

namespace register_tiled_sgemm {
namespace {

using course::matmul::Shape;
using Launcher = void (*)(const float*, const float*, float*, int, int, int);

struct KnownMistake {
  const char* name;
  Launcher launch;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

// k and n multiples of 4 (the 16-byte path), k not a multiple of the tile's 8, m not of 128;
// small enough that a read past a matrix stays inside the checker's guard zones.
const std::vector<Shape> kShapes = {{33, 12, 64}, {3, 4, 8}, {70, 68, 132}, {20, 20, 20},
                                    {129, 44, 136}, {256, 260, 256}};

std::string first_rejection(const KnownMistake& mistake) {
  const course::matmul::MatmulUnderTest sgemm{
      mistake.name, "tests/07-register-tiled-sgemm/mistakes/sgemm_mistakes.cu",
      [launch = mistake.launch](const float* M, const float* N, float* P, Shape s) {
        launch(M, N, P, s.m, s.k, s.n);
      }};
  for (int attempt = 0; attempt < 3; ++attempt) {  // a race may need a few tries to show
    for (const Shape& shape : kShapes) {
      const ::testing::AssertionResult verdict = course::matmul::matches_cpu(sgemm, shape);
      if (!verdict) return verdict.message();
    }
  }
  return "";
}

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  EXPECT_TRUE(course::shows_the_rejection(first_rejection(GetParam())))
      << GetParam().name << " passed every check: the tests cannot catch this mistake";
}

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(KnownMistake{"vector_load_past_the_edge", mistakes::vector_load_past_the_edge},
                      KnownMistake{"register_tile_index_off_by_one",
                                   mistakes::register_tile_index_off_by_one}),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const KnownMistake& mistake, const char* tool) {
  course::report_what_the_numbers_showed(mistake.name, first_rejection(mistake), tool);
}

TEST(MistakesSeenBySanitizers, MissingBarrierAfterLoad) {
  report_numbers({"missing_barrier_after_load", mistakes::missing_barrier_after_load}, "racecheck");
}

TEST(MistakesSeenBySanitizers, MissingBarrierAfterCompute) {
  report_numbers({"missing_barrier_after_compute", mistakes::missing_barrier_after_compute},
                 "racecheck");
}

TEST(MistakesSeenBySanitizers, MRowsUnguarded) {
  report_numbers({"m_rows_unguarded", mistakes::m_rows_unguarded}, "memcheck");
}

}  // namespace
}  // namespace register_tiled_sgemm
