// Host tests (no GPU needed): every launcher rejects bad arguments with std::invalid_argument
// before it touches the GPU. Run against both implementations: the checks are scaffolding that
// the exercise ships with. Each test concerns one step's launcher and carries the step's id in
// its parameter name (".../step4_grid_stride"), so that step's filter runs it.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/testing.hpp"
#include "sum_of_squares_checks.hpp"

namespace sum_of_squares::testing {
namespace {

using course::invalid_argument_message;

struct Launcher {
  Implementation implementation;
  int step;
};

const char* const kStepIds[] = {"step0_pointer_chase",     "step1_one_thread",
                                "step2_contiguous_chunks", "step3_interleaved",
                                "step4_grid_stride",       "step5_block_reduction"};

void PrintTo(const Launcher& launcher, std::ostream* out) {
  PrintTo(launcher.implementation, out);
  *out << " " << kStepIds[launcher.step];
}

std::string launcher_name(const ::testing::TestParamInfo<Launcher>& info) {
  return kStepIds[info.param.step];
}

std::vector<Launcher> launchers(Implementation implementation, std::vector<int> steps) {
  std::vector<Launcher> all;
  for (int step : steps) all.push_back({implementation, step});
  return all;
}

// Runs one of steps 1-5 of the parameter's implementation.
class SumOfSquaresArguments : public ::testing::TestWithParam<Launcher> {
 protected:
  Result run(const int* input, std::size_t n, int blocks, int threads) {
    Workspace workspace;
    const bool sol = GetParam().implementation == Implementation::solution;
    switch (GetParam().step) {
      case 1: return sol ? solution::step1_one_thread(input, n, workspace)
                         : exercise::step1_one_thread(input, n, workspace);
      case 2: return sol ? solution::step2_contiguous_chunks(input, n, threads, workspace)
                         : exercise::step2_contiguous_chunks(input, n, threads, workspace);
      case 3: return sol ? solution::step3_interleaved(input, n, threads, workspace)
                         : exercise::step3_interleaved(input, n, threads, workspace);
      case 4: return sol ? solution::step4_grid_stride(input, n, blocks, threads, workspace)
                         : exercise::step4_grid_stride(input, n, blocks, threads, workspace);
      case 5: return sol ? solution::step5_block_reduction(input, n, blocks, threads, workspace)
                         : exercise::step5_block_reduction(input, n, blocks, threads, workspace);
      default: throw std::logic_error("SumOfSquaresArguments: steps 1 to 5");
    }
  }
  std::string where() const { return kStepIds[GetParam().step]; }
};

const int* const kNoInput = nullptr;

// ---- Steps 1-5: the input -------------------------------------------------------------------
TEST_P(SumOfSquaresArguments, NullInputWithElementsIsRejected) {
  const std::string message = invalid_argument_message([&] { run(kNoInput, 10, 4, 64); });
  EXPECT_NE(message.find("null pointer"), std::string::npos) << where() << ": " << message;
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresArguments,
                         ::testing::ValuesIn(launchers(Implementation::solution, {1, 2, 3, 4, 5})),
                         launcher_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresArguments,
                         ::testing::ValuesIn(launchers(Implementation::exercise, {1, 2, 3, 4, 5})),
                         launcher_name);

// ---- Steps 2-5: the block size ----------------------------------------------------------------
class SumOfSquaresThreadArguments : public SumOfSquaresArguments {};

TEST_P(SumOfSquaresThreadArguments, ZeroOrTooManyThreadsAreRejected) {
  int dummy = 0;
  for (int threads : {0, -32, 1025, 4096}) {
    const std::string message = invalid_argument_message([&] { run(&dummy, 1, 4, threads); });
    EXPECT_NE(message.find("between 1 and 1024"), std::string::npos)
        << where() << ", threads " << threads << ": " << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresThreadArguments,
                         ::testing::ValuesIn(launchers(Implementation::solution, {2, 3, 4, 5})),
                         launcher_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresThreadArguments,
                         ::testing::ValuesIn(launchers(Implementation::exercise, {2, 3, 4, 5})),
                         launcher_name);

// ---- Steps 4-5: the grid size -----------------------------------------------------------------
class SumOfSquaresBlockArguments : public SumOfSquaresArguments {};

TEST_P(SumOfSquaresBlockArguments, ZeroBlocksAreRejected) {
  int dummy = 0;
  const std::string message = invalid_argument_message([&] { run(&dummy, 1, 0, 64); });
  EXPECT_NE(message.find("blocks must be at least 1"), std::string::npos)
      << where() << ": " << message;
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresBlockArguments,
                         ::testing::ValuesIn(launchers(Implementation::solution, {4, 5})),
                         launcher_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresBlockArguments,
                         ::testing::ValuesIn(launchers(Implementation::exercise, {4, 5})),
                         launcher_name);

// ---- Step 5: the tree needs a power-of-two block ------------------------------------------
class SumOfSquaresTreeArguments : public SumOfSquaresArguments {};

TEST_P(SumOfSquaresTreeArguments, ABlockSizeThatIsNotAPowerOfTwoIsRejected) {
  int dummy = 0;
  for (int threads : {3, 96, 1000}) {
    const std::string message = invalid_argument_message([&] { run(&dummy, 1, 4, threads); });
    EXPECT_NE(message.find("power of two"), std::string::npos) << threads << ": " << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresTreeArguments,
                         ::testing::ValuesIn(launchers(Implementation::solution, {5})),
                         launcher_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresTreeArguments,
                         ::testing::ValuesIn(launchers(Implementation::exercise, {5})),
                         launcher_name);

// ---- Step 0: the pointer chase --------------------------------------------------------------
class SumOfSquaresChaseArguments : public ::testing::TestWithParam<Launcher> {};

TEST_P(SumOfSquaresChaseArguments, EmptyInputAndZeroLoadsAreRejected) {
  const std::uint32_t* no_next = nullptr;
  std::uint32_t dummy = 0;
  const bool sol = GetParam().implementation == Implementation::solution;
  auto chase = [sol](const std::uint32_t* next, std::size_t n, std::size_t loads) {
    return sol ? solution::step0_pointer_chase(next, n, loads)
               : exercise::step0_pointer_chase(next, n, loads);
  };
  EXPECT_THROW(chase(no_next, 10, 10), std::invalid_argument);
  EXPECT_THROW(chase(&dummy, 0, 10), std::invalid_argument);
  EXPECT_THROW(chase(&dummy, 1, 0), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Solution, SumOfSquaresChaseArguments,
                         ::testing::ValuesIn(launchers(Implementation::solution, {0})),
                         launcher_name);
INSTANTIATE_TEST_SUITE_P(Exercise, SumOfSquaresChaseArguments,
                         ::testing::ValuesIn(launchers(Implementation::exercise, {0})),
                         launcher_name);

}  // namespace
}  // namespace sum_of_squares::testing
