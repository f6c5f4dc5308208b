// The reduction chapters' benchmark pieces that need no GPU: the skip messages (./course compare
// shows them as they are), the check of a result against the input's exact one, and the row
// names that ./course compare and the READMEs' measured tables read.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "course/reduction_benchmark.hpp"

namespace {

using course::bench::Reducer;

TEST(Reducer, PointsAWrongImplementationAtItsTests) {
  const Reducer step = Reducer::implementation(false, "step3_interleaved", "01-sum-of-squares");
  EXPECT_EQ(step.wrong(), "exercise step3_interleaved gives a wrong sum; its tests say why: "
                          "meson test -C build --suite 01-sum-of-squares:exercise");
  EXPECT_EQ(Reducer::implementation(true, "reduce1", "05-reduction").wrong(),
            "solution reduce1 gives a wrong sum; its tests say why: "
            "meson test -C build --suite 05-reduction:solution");
  EXPECT_EQ(step.wrong_when_timed(),
            "exercise step3_interleaved gave a wrong sum in the timed runs");
}

TEST(Reducer, NamesTheVendorWithoutTests) {
  EXPECT_EQ(Reducer::vendor("CUB").wrong(), "CUB gave a wrong sum");
  EXPECT_EQ(Reducer::vendor("CUB").wrong_when_timed(), "CUB gave a wrong sum in the timed runs");
}

TEST(CloseEnough, WantsIntegersExactly) {
  course::bench::ReductionInput<int, std::uint64_t> input;
  input.exact = 1234567890123ull;
  EXPECT_TRUE(course::bench::close_enough(input, std::uint64_t{1234567890123ull}));
  EXPECT_FALSE(course::bench::close_enough(input, std::uint64_t{1234567890124ull}));
}

TEST(CloseEnough, AllowsTheBoundAndRejectsNan) {
  course::bench::ReductionInput<double> input;
  input.exact = 10.0L;
  input.bound = 0.5;
  EXPECT_TRUE(course::bench::close_enough(input, 10.5));
  EXPECT_TRUE(course::bench::close_enough(input, 9.5f));
  EXPECT_FALSE(course::bench::close_enough(input, 10.6));
  EXPECT_FALSE(course::bench::close_enough(input, std::numeric_limits<double>::quiet_NaN()));
}

TEST(ProbeExercise, RunsTheProbeOutsideTheProfiler) {
  if (course::bench::profiling()) GTEST_SKIP() << "COURSE_PROFILE=1 is set";
  EXPECT_FALSE(course::bench::probe_exercise([] { return false; }));
  EXPECT_TRUE(course::bench::probe_exercise([] { return true; }));
}

TEST(RegisterImplementationRow, GivesAFailedExerciseOneSampleAndOneRepetition) {
  if (course::bench::full_run()) GTEST_SKIP() << "COURSE_FULL_BENCHMARK=1 is set";
  benchmark::ClearRegisteredBenchmarks();
  const auto nothing = [](benchmark::State&) {};
  course::bench::register_implementation_row(false, false, "step1/n=2^10", 10, 5, nothing);
  course::bench::register_implementation_row(false, true, "step2/n=2^10", 10, 5, nothing);
  course::bench::register_implementation_row(true, false, "step1/n=2^10", 10, 5, nothing);
  course::bench::register_row("CUB/Sum/n=2^10", 20, 5, nothing);
  char program[] = "test", list[] = "--benchmark_list_tests=true";
  char* argv[] = {program, list};
  int argc = 2;
  benchmark::Initialize(&argc, argv);
  testing::internal::CaptureStdout();
  benchmark::RunSpecifiedBenchmarks();
  const std::string listed = testing::internal::GetCapturedStdout();
  benchmark::ClearRegisteredBenchmarks();
  EXPECT_EQ(listed,
            "Exercise/step1/n=2^10/iterations:1/repeats:1/manual_time\n"
            "Exercise/step2/n=2^10/iterations:10/repeats:5/manual_time\n"
            "Solution/step1/n=2^10/iterations:10/repeats:5/manual_time\n"
            "CUB/Sum/n=2^10/iterations:20/repeats:5/manual_time\n");
}

}  // namespace
