// The tests have teeth: the checker rejects every known-wrong tiled kernel in mistakes/. The
// two missing barriers are races, so each is tried on several sizes and several times; each
// test prints what a learner with that bug would see.
#include <gtest/gtest.h>

#include <iostream>

#include "course/matmul_testing.hpp"
#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"

namespace tiled_matmul {
namespace {

struct KnownMistake {
  const char* name;
  void (*launch)(const float*, const float*, float*, int);
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

// The first rejection of `mistake`, or "" when it passed every size and attempt.
std::string first_rejection(const KnownMistake& mistake) {
  const course::matmul::MatmulUnderTest under_test{
      std::string(mistake.name) + " (TILE_WIDTH 32)",
      "tests/03-tiled-matmul/mistakes/tiled_matmul_mistakes.cu",
      [mistake](const float* M, const float* N, float* P, course::matmul::Shape shape) {
        mistake.launch(M, N, P, shape.n);
      }};
  // Under a sanitizer (the Meson tests that run these) the small sizes once: minutes otherwise.
  const bool small = course::under_sanitizer();
  const std::vector<int> widths = small ? std::vector<int>{32, 64} : std::vector<int>{32, 64, 256, 1024};
  for (int attempt = 0; attempt < (small ? 1 : 5); ++attempt) {
    for (int width : widths) {
      const ::testing::AssertionResult verdict = course::matmul::matches_cpu(
          under_test, course::matmul::Shape::square(width), course::kDefaultSeed + attempt);
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

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const KnownMistake& mistake, const char* tool) {
  course::report_what_the_numbers_showed(mistake.name, first_rejection(mistake), tool);
}

TEST(MistakesSeenBySanitizers, MTileStoredAfterTheBarrier) {
  report_numbers({"m_tile_stored_after_the_barrier", mistakes::m_tile_stored_after_the_barrier},
                 "racecheck");
}

TEST(MistakesSeenBySanitizers, PrefetchPastTheLastPhase) {
  report_numbers({"prefetch_past_the_last_phase", mistakes::prefetch_past_the_last_phase},
                 "memcheck");
}

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(KnownMistake{"missing_first_syncthreads", mistakes::missing_first_syncthreads},
                      KnownMistake{"missing_second_syncthreads",
                                   mistakes::missing_second_syncthreads},
                      KnownMistake{"tile_loaded_transposed", mistakes::tile_loaded_transposed}),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tiled_matmul
