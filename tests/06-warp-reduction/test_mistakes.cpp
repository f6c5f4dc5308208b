// The tests have teeth: every known-wrong variant in mistakes/ is rejected, and each test prints
// what a learner with that bug would see (the README quotes them).
//  - by the numbers: Mistakes/KnownMistakes.*;
//  - by compute-sanitizer, where the numbers may come out right: MistakesSeenBySanitizers.* run
//    the mistake and report what the numbers did; the Meson test "compute-sanitizer catches the
//    known mistakes" runs them under the tool that steps.json names and requires its report;
//  - by the code itself where neither numbers nor sanitizers can see it (seen on an H100): the
//    partial shuffle mask in the PTX, the missing (or block-scope) fence in the SASS.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "course/testing.hpp"
#include "mistakes/mistakes.hpp"
#include "warp_reduction_checks.hpp"

namespace warp_reduction::testing {
namespace {

const char* const kFile = "tests/06-warp-reduction/mistakes/warp_reduction_mistakes.cu";

struct KnownMistake {
  const char* name;
  ReduceFn<int> run_int;
  ReduceFn<float> run_float;
};

void PrintTo(const KnownMistake& mistake, std::ostream* out) { *out << mistake.name; }

// The first rejection over every size, offset and block size, or "" when everything passed.
std::string first_rejection(const KnownMistake& mistake) {
  for (std::size_t n : test_sizes()) {
    for (int block_size : {64, 256, 1024}) {
      for (std::size_t offset : start_offsets<int>()) {
        ::testing::AssertionResult verdict =
            matches_cpu<int>({mistake.name, kFile}, mistake.run_int, n, offset, block_size);
        if (verdict && offset < 2) {
          verdict = matches_cpu<float>({mistake.name, kFile}, mistake.run_float, n, offset,
                                       block_size);
        }
        if (!verdict) return verdict.message();
      }
    }
  }
  return "";
}

#define KNOWN_MISTAKE(name) \
  KnownMistake { #name, mistakes::name<int>, mistakes::name<float> }

class KnownMistakes : public ::testing::TestWithParam<KnownMistake> {};

TEST_P(KnownMistakes, AreRejectedByTheTests) {
  EXPECT_TRUE(course::shows_the_rejection(first_rejection(GetParam())))
      << GetParam().name << " passed every check: the tests cannot catch this mistake";
}

INSTANTIATE_TEST_SUITE_P(Mistakes, KnownMistakes,
                         ::testing::Values(KNOWN_MISTAKE(vector_load_past_the_tail)),
                         [](const ::testing::TestParamInfo<KnownMistake>& info) {
                           return std::string(info.param.name);
                         });

// Run under a sanitizer by the Meson test "compute-sanitizer catches the known mistakes"; here they
// only have to run, and say whether the numbers showed the bug on this GPU.
void report_numbers(const KnownMistake& mistake, const char* tool) {
  course::report_what_the_numbers_showed(mistake.name, first_rejection(mistake), tool);
}

TEST(MistakesSeenBySanitizers, LastWarpWithoutSyncwarp) {
  report_numbers(KNOWN_MISTAKE(last_warp_without_syncwarp), "racecheck");
}

TEST(MistakesSeenBySanitizers, MaskedVectorLoadPastTheTail) {
  report_numbers(KNOWN_MISTAKE(masked_vector_load_past_the_tail), "memcheck");
}

TEST(Mistakes, PartialMaskShuffleIsRejectedByTheShuffleMaskCheck) {
  std::string why_not;
  // The 256-thread kernels: with 1024 threads, 32 warps, the mistake's mask is the full warp.
  const auto code = ptx_of({"8mistakes", "partial_mask_kernel", "Lj256E"}, &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty());
  for (const MachineCode& kernel : code) {
    const std::string problem = partial_shuffle_mask_problem(kernel);
    EXPECT_NE(problem.find("only part of the warp"), std::string::npos)
        << kernel.kernel << " was not reported as a partial mask: " << problem;
    if (!problem.empty() && &kernel == &code.front()) {
      std::cout << "Rejected as expected. What the learner sees:\nstep3_warp_shuffle: " << problem
                << "\n";
    }
  }
  // As the learner's test judges it: every instantiation at once (the 1024-thread ones have the
  // full mask), and the partial one is reported.
  const auto all = ptx_of({"8mistakes", "partial_mask_kernel"}, &why_not);
  EXPECT_NE(shuffle_mask_problem(all).problem.find("only part of the warp"), std::string::npos);
  report_numbers(KNOWN_MISTAKE(partial_mask_shuffle), "the shuffle-mask check");
}

// Every instantiation of the mistake's kernel, judged as the learner's kernel is (SASS and PTX),
// must be rejected with `expected` in the message; prints what the learner sees.
void expect_rejected_by_the_memory_order_check(const char* kernel_part, const char* expected) {
  std::string why_not;
  const auto code = machine_code_of({"8mistakes", kernel_part}, &why_not);
  if (!why_not.empty()) GTEST_SKIP() << "skipped, not passed: " << why_not;
  ASSERT_FALSE(code.empty());
  std::string no_ptx;
  const auto ptx = ptx_of({"8mistakes", kernel_part}, &no_ptx);
  for (const MachineCode& function : code) {
    const MachineCode* same_in_ptx = nullptr;
    for (const MachineCode& candidate : ptx) {
      if (candidate.kernel == function.kernel) same_in_ptx = &candidate;
    }
    const std::string problem = ticket_ordering_problem(function, same_in_ptx);
    EXPECT_NE(problem.find(expected), std::string::npos)
        << function.kernel << " was not rejected as expected by the memory-order check: "
        << (problem.empty() ? "it passed" : problem);
    if (!problem.empty() && &function == &code.front()) {
      std::cout << "Rejected as expected. What the learner sees:\nstep5_one_launch: " << problem
                << "\n";
    }
  }
}

TEST(Mistakes, MissingThreadfenceIsRejectedByTheMemoryOrderCheck) {
  expect_rejected_by_the_memory_order_check("missing_threadfence_kernel", "no __threadfence()");
  if (HasFatalFailure() || IsSkipped()) return;
  // And the numbers, which do not show it: a missing fence is a race that rarely loses.
  report_numbers(KNOWN_MISTAKE(missing_threadfence), "the memory-order check");
}

TEST(Mistakes, BlockScopeFenceIsRejectedByTheMemoryOrderCheck) {
  expect_rejected_by_the_memory_order_check("block_scope_fence_kernel",
                                            "reaches only this block");
  if (HasFatalFailure() || IsSkipped()) return;
  report_numbers(KNOWN_MISTAKE(block_scope_fence), "the memory-order check");
}

}  // namespace
}  // namespace warp_reduction::testing
