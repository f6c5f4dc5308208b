// The tests have teeth: the checks that the exercise and the solution face reject every
// known-wrong version in mistakes/. Each test prints what a learner with that bug would see.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "first_kernel_checks.hpp"
#include "mistakes/mistakes.hpp"

namespace first_kernel::testing {
namespace {

const std::string kFile = "tests/00-first-kernel/mistakes/first_kernel_mistakes.cu";

void expect_rejected(const char* name, const ::testing::AssertionResult& verdict) {
  ASSERT_FALSE(verdict) << name << " passed: the tests cannot catch this mistake";
  std::cout << "Rejected as expected. What the learner sees:\n" << verdict.message() << "\n";
}

TEST(MistakesOfFirstKernel, MissingTailGuard) {
  expect_rejected("missing_tail_guard",
                  kernel_matches_cpu(mistakes::missing_tail_guard(), 1000, 256, kFile));
}

TEST(MistakesOfFirstKernel, GridRoundedDown) {
  expect_rejected("grid_rounded_down", config_covers(mistakes::grid_rounded_down, 1000, 256,
                                                     kFile));
}

TEST(MistakesOfFirstKernel, LaunchNotChecked) {
  expect_rejected("launch_not_checked",
                  bad_launch_is_reported(mistakes::launch_not_checked, kFile));
}

TEST(MistakesOfFirstKernel, HostPointerToKernel) {
  expect_rejected("host_pointer_to_kernel",
                  kernel_gets_gpu_pointers(mistakes::host_pointer_to_kernel, kFile));
}

}  // namespace
}  // namespace first_kernel::testing
