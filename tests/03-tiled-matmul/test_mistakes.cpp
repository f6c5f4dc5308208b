// The tests have teeth: the checker rejects every known-wrong tiled kernel in mistakes/. The
// two missing barriers are races, so each is tried on several sizes and several times; each
// test prints what a learner with that bug would see.
#include <gtest/gtest.h>

#include <iostream>

#include "course/matmul_testing.hpp"
#include "mistakes/mistakes.hpp"

namespace tiled_matmul {
namespace {

struct KnownMistake {
  const char* name;
  void (*launch)(const float*, const float*, float*, int);
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake mistake = GetParam();
  const course::matmul::MatmulUnderTest under_test{
      std::string(mistake.name) + " (TILE_WIDTH 32)",
      "tests/03-tiled-matmul/mistakes/tiled_matmul_mistakes.cu",
      [mistake](const float* M, const float* N, float* P, course::matmul::Shape shape) {
        mistake.launch(M, N, P, shape.n);
      }};
  for (int attempt = 0; attempt < 5; ++attempt) {
    for (int width : {32, 64, 256, 1024}) {
      const ::testing::AssertionResult verdict = course::matmul::matches_cpu(
          under_test, course::matmul::Shape::square(width), course::kDefaultSeed + attempt);
      if (!verdict) {
        std::cout << "Rejected as expected. What the learner sees:\n"
                  << verdict.message() << "\n";
        return;
      }
    }
  }
  FAIL() << mistake.name << " passed every check: the tests cannot catch this mistake";
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
