// The chapter-02 matmuls under test: solution and exercise, either whole (steps 1 + 2) or the
// kernel alone (step 1) launched with a configuration the test computes itself.
#pragma once

#include <ostream>
#include <string>

#include "course/matmul_testing.hpp"
#include "naive_matmul.cuh"

namespace naive_matmul::testing {

enum class Implementation { solution, exercise };
void PrintTo(Implementation implementation, std::ostream* out);

std::string source_file(Implementation implementation);

// Step 1 alone: the kernel with a correct grid (so a wrong launch_config cannot hide it).
course::matmul::MatmulUnderTest kernel_with_correct_grid(Implementation implementation,
                                                         int block_side);
// Steps 1 and 2: matmul() as the learner's program calls it.
course::matmul::MatmulUnderTest whole_matmul(Implementation implementation, int block_side);

}  // namespace naive_matmul::testing
