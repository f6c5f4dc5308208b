// GPU tests of chapter 06 against the solution (suite "solution") and the exercise (suite
// "exercise"): every step and library form, block sizes 64, 256 and 1024, every test size from
// 1 to 2^26 + 7 and start offsets that misalign the input for 16-byte loads; ints exactly,
// floats and doubles within the rounding bound. Plus the one-launch kernels' memory order,
// read off their machine code.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "course/testing.hpp"

#include "course/guarded_buffer.hpp"
#include "warp_reduction_checks.hpp"

namespace warp_reduction::testing {
namespace {

enum class Implementation { solution, exercise };
using Case = std::tuple<Implementation, int, int>;  // implementation, index in kStepFunctions, block

StepUnderTest under_test(Implementation impl, int index) {
  return {kStepFunctions[index].name,
          std::string(impl == Implementation::solution ? "solutions" : "exercises") +
              "/06-warp-reduction/" + file_of(kStepFunctions[index])};
}

// Every size and start offset; stops at the first mismatch (one message per test, not dozens).
template <typename T>
void expect_every_size_matches(Implementation impl, int index, int block_size) {
  const ReduceFn<T> reduce =
      impl == Implementation::solution ? solution_step<T>(index) : exercise_step<T>(index);
  for (std::size_t n : test_sizes()) {
    for (std::size_t offset : start_offsets<T>()) {
      const ::testing::AssertionResult verdict =
          matches_cpu<T>(under_test(impl, index), reduce, n, offset, block_size);
      if (!verdict) {
        ADD_FAILURE() << verdict.message();
        return;
      }
    }
  }
}

class WarpReduction : public ::testing::TestWithParam<Case> {};

TEST_P(WarpReduction, MatchesCpuForIntsExactly) {
  const auto [impl, index, block_size] = GetParam();
  expect_every_size_matches<int>(impl, index, block_size);
}

TEST_P(WarpReduction, MatchesCpuForFloatsWithinTheRoundingBound) {
  const auto [impl, index, block_size] = GetParam();
  expect_every_size_matches<float>(impl, index, block_size);
}

TEST_P(WarpReduction, MatchesCpuForDoublesWithinTheRoundingBound) {
  const auto [impl, index, block_size] = GetParam();
  expect_every_size_matches<double>(impl, index, block_size);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(kStepFunctions[std::get<1>(info.param)].name) + "_block" +
         std::to_string(std::get<2>(info.param));
}

// Under compute-sanitizer (a step's sanitizer cases), 256-thread blocks only.
std::vector<Case> cases(Implementation impl) {
  std::vector<Case> all;
  for (int index = 0; index < kStepFunctionCount; ++index) {
    for (int block : course::under_sanitizer() ? std::vector<int>{256}
                                               : std::vector<int>{64, 256, 1024}) {
      all.emplace_back(impl, index, block);
    }
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Solution, WarpReduction,
                         ::testing::ValuesIn(cases(Implementation::solution)), case_name);
INSTANTIATE_TEST_SUITE_P(Exercise, WarpReduction,
                         ::testing::ValuesIn(cases(Implementation::exercise)), case_name);

// ---- Launch counts (the launchers' part, the same in exercise and solution) --------------------
class LaunchCount : public ::testing::TestWithParam<int> {};

TEST_P(LaunchCount, IsOneForTheOneLaunchStepsAndTwoForTheGridStridePasses) {
  const int index = GetParam();
  const std::size_t n = (1 << 20) + 3;
  const course::GuardedBuffer<int> input(test_input<int>(n));
  Workspace<int> workspace;
  solution_step<int>(index)(input.data(), n, 256, workspace);
  if (kStepFunctions[index].one_launch) {
    EXPECT_EQ(workspace.launches(), 1) << kStepFunctions[index].name << ": one launch, no host loop";
  } else if (index > 0) {
    EXPECT_EQ(workspace.launches(), 2)
        << kStepFunctions[index].name << ": a grid-stride pass, then one block over the block sums";
  } else {
    EXPECT_EQ(workspace.launches(), 3) << "2^20 + 3 elements, 512 per block: 2049, 5, 1 sums";
  }
}

// The benchmark times the launches alone: the sum stays on the GPU until copy_last_sum().
TEST_P(LaunchCount, LeavesTheSumOnTheDeviceWhenAsked) {
  const int index = GetParam();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{(1 << 20) + 3}}) {
    const std::vector<int> values = test_input<int>(n);
    const course::GuardedBuffer<int> input(values);
    Workspace<int> workspace;
    workspace.leave_sum_on_device(true);
    EXPECT_EQ(solution_step<int>(index)(input.data(), n, 256, workspace), 0)
        << kStepFunctions[index].name << ", n = " << n << ": the sum must stay on the GPU";
    EXPECT_EQ(static_cast<long double>(workspace.copy_last_sum()), cpu_sum(values.data(), n))
        << kStepFunctions[index].name << ", n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Solution, LaunchCount, ::testing::Range(0, kStepFunctionCount),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(kStepFunctions[info.param].name);
                         });

// ---- The one-launch kernels: store, __threadfence(), then the ticket -----------------------
// A missing fence gives the right numbers almost always, so no run can show it; the machine
// code can. (cuobjdump -sass prints it; the test reads it from this very program.) A ticket
// taken with release semantics at device scope (cuda::atomic_ref, acq_rel) is as good.
struct OneLaunchKernel {
  Implementation implementation;
  const char* step;         // its name in kStepFunctions
  const char* file;         // where its kernel is
  const char* kernel_part;  // in the mangled kernel name
};

class OneLaunchMemoryOrder : public ::testing::TestWithParam<OneLaunchKernel> {};

TEST_P(OneLaunchMemoryOrder, TheBlockTotalIsFencedBeforeTheTicket) {
  const OneLaunchKernel kernel = GetParam();
  const bool solution = kernel.implementation == Implementation::solution;
  std::string why_not;
  const auto code = machine_code_of({solution ? "8solution" : "8exercise", kernel.kernel_part},
                                    &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty()) << "no kernel matching " << kernel.kernel_part << " in this program";
  // The PTX keeps the ticket's memory order (a cuda::atomic_ref fetch_add with acq_rel is as
  // good as __threadfence() before atomicAdd); without cuobjdump -ptx the SASS alone judges.
  std::string no_ptx;
  const auto ptx = ptx_of({solution ? "8solution" : "8exercise", kernel.kernel_part}, &no_ptx);
  for (const MachineCode& function : code) {
    const MachineCode* same_in_ptx = nullptr;
    for (const MachineCode& candidate : ptx) {
      if (candidate.kernel == function.kernel) same_in_ptx = &candidate;
    }
    const std::string problem = ticket_ordering_problem(function, same_in_ptx);
    EXPECT_TRUE(problem.empty()) << kernel.step << ": " << problem << ".\n  Edit: "
                                 << (solution ? "solutions" : "exercises")
                                 << "/06-warp-reduction/" << kernel.file << "\n  Kernel: "
                                 << function.kernel;
    if (!problem.empty()) return;
  }
}

std::vector<OneLaunchKernel> one_launch_kernels(Implementation impl) {
  return {{impl, "step5_one_launch", "step5_one_launch.cu", "one_launch_kernel"},
          {impl, "step6_cooperative_groups", "step6_library_forms.cu", "CooperativeGroupsBlockSum"},
          {impl, "step6_cub_block_reduce", "step6_library_forms.cu", "CubBlockSum"}};
}

std::string kernel_name(const ::testing::TestParamInfo<OneLaunchKernel>& info) {
  return info.param.step;
}

INSTANTIATE_TEST_SUITE_P(Solution, OneLaunchMemoryOrder,
                         ::testing::ValuesIn(one_launch_kernels(Implementation::solution)),
                         kernel_name);
// Step 6's kernels take their ticket in ready-made code: only step 5's is the learner's.
INSTANTIATE_TEST_SUITE_P(Exercise, OneLaunchMemoryOrder,
                         ::testing::Values(one_launch_kernels(Implementation::exercise).front()),
                         kernel_name);

// ---- Step 3's shuffles name the whole warp --------------------------------------------------
// A partial mask gives the right sums on today's GPUs and compute-sanitizer does not report it
// (seen on an H100): the PTX, which keeps every shuffle's member mask, shows it. Shuffles
// (shfl.sync) and __reduce_add_sync or cg::reduce on ints (redux.sync) alike; a partial mask in
// any instantiation is reported before an instantiation with no shuffle at all.
class ShuffleMasks : public ::testing::TestWithParam<Implementation> {};

TEST_P(ShuffleMasks, EveryShuffleOfStep3NamesTheWholeWarp) {
  const bool solution = GetParam() == Implementation::solution;
  std::string why_not;
  const auto code = ptx_of({solution ? "8solution" : "8exercise", "warp_shuffle_kernel"}, &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty()) << "no warp_shuffle_kernel in this program's PTX";
  const KernelProblem found = shuffle_mask_problem(code);
  EXPECT_TRUE(found.problem.empty()) << "step3_warp_shuffle: " << found.problem << ".\n  Edit: "
                                     << (solution ? "solutions" : "exercises")
                                     << "/06-warp-reduction/step3_warp_shuffle.cu\n  Kernel: "
                                     << found.kernel;
}

COURSE_STEP_TESTS(ShuffleMasks, Implementation, 3);

}  // namespace
}  // namespace warp_reduction::testing
