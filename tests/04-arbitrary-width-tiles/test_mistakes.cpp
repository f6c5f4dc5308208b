// The tests have teeth: the checker rejects the known-wrong boundary kernels in mistakes/, and
// prints what a learner with that bug would see. One mistake computes the right numbers while
// reading outside the matrices: the test shows that the results pass, and the Meson test
// "memcheck catches only_last_phase_guarded" shows that compute-sanitizer does not let it pass.
#include <gtest/gtest.h>

#include <iostream>

#include "course/compare.hpp"
#include "course/device_buffer.hpp"
#include "course/matmul_testing.hpp"
#include "mistakes/mistakes.hpp"

namespace boundary_tiled_matmul {
namespace {

using Launcher = void (*)(const float*, const float*, float*, int, int);

course::matmul::MatmulUnderTest under_test(const char* name, Launcher launch) {
  return {std::string(name) + " (TILE_WIDTH 16)",
          "tests/04-arbitrary-width-tiles/mistakes/boundary_mistakes.cu",
          [launch](const float* M, const float* N, float* P, course::matmul::Shape shape) {
            launch(M, N, P, shape.n, 16);
          }};
}

struct KnownMistake {
  const char* name;
  Launcher launch;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  const KnownMistake mistake = GetParam();
  for (int width : {3, 17, 33, 70}) {
    const ::testing::AssertionResult verdict = course::matmul::matches_cpu(
        under_test(mistake.name, mistake.launch), course::matmul::Shape::square(width));
    if (!verdict) {
      std::cout << "Rejected as expected. What the learner sees:\n" << verdict.message() << "\n";
      return;
    }
  }
  FAIL() << mistake.name << " passed every check: the tests cannot catch this mistake";
}

INSTANTIATE_TEST_SUITE_P(
    Mistakes, KnownMistakes,
    ::testing::Values(KnownMistake{"loads_unguarded", mistakes::loads_unguarded},
                      KnownMistake{"tile_slots_not_zeroed", mistakes::tile_slots_not_zeroed},
                      KnownMistake{"store_unguarded", mistakes::store_unguarded}),
    [](const ::testing::TestParamInfo<KnownMistake>& info) { return std::string(info.param.name); });

// Run under memcheck by the Meson test that expects it to fail (expect_sanitizer_error.py).
// Exact-size allocations, no guard zones: with --padding, memcheck sees every read past the end
// of a matrix (the checker's guard zones would make those reads legal).
TEST(MemcheckOnlyMistakes, OnlyLastPhaseGuardedGivesRightNumbersFromOutOfBoundsReads) {
  for (int width : {17, 33}) {
    const course::matmul::Shape shape = course::matmul::Shape::square(width);
    const std::vector<float> M = course::matmul::random_matrix(width, width, 1);
    const std::vector<float> N = course::matmul::random_matrix(width, width, 2);
    const course::matmul::Reference reference = course::matmul::cpu_reference(M, N, shape);
    const course::DeviceBuffer<float> device_M(M), device_N(N);
    course::DeviceBuffer<float> device_P(M.size());
    mistakes::only_last_phase_guarded(device_M.data(), device_N.data(), device_P.data(), width,
                                      16);
    const course::ComparisonReport report = course::compare_within(
        reference.product, device_P.to_host(), reference.error_bound, width);
    EXPECT_TRUE(report.ok()) << report.text()
                             << "\nthe element values were expected to be right: only memcheck "
                                "sees this bug";
  }
}

}  // namespace
}  // namespace boundary_tiled_matmul
