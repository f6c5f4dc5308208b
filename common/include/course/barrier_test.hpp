// The barrier check (course::barrier_problem_of, machine_code.hpp) as one test statement, for
// the tests of every step whose code holds a __syncthreads(): a barrier that only some threads
// of the block reach is undefined behaviour that no run and no sanitizer shows on Volta and
// newer GPUs, so the learner's run reads it off the PTX.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "course/machine_code.hpp"

// Skips ("skipped, not passed: <why>") where the check cannot run; otherwise fails with the
// problem, the step and the file to edit. `name_parts`: a std::vector<std::string> of parts of
// the kernels' mangled names (a variable: braces would split the macro's arguments).
#define COURSE_EXPECT_EVERY_BARRIER_REACHED(name_parts, step_name, file_to_edit)                 \
  do {                                                                                          \
    std::string course_skipped_;                                                                \
    const std::string course_problem_ =                                                         \
        ::course::barrier_problem_of((name_parts), &course_skipped_);                          \
    if (!course_skipped_.empty()) GTEST_SKIP() << "skipped, not passed: " << course_skipped_;   \
    EXPECT_TRUE(course_problem_.empty())                                                        \
        << (step_name) << ": " << course_problem_ << ".\n  Edit: " << (file_to_edit);           \
  } while (0)
