// The chapter-02 matmuls under test, one step at a time, so that each step's tests need only
// that step done: the kernel (step 1) with a grid the test computes itself, and the launch
// configuration (step 2) with the solution's kernel.
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
// Step 2 alone: `implementation`'s launch_config with the solution's (ready-made) kernel, so a
// kernel still to write cannot hide a correct configuration (for the solution: its matmul()).
course::matmul::MatmulUnderTest config_with_ready_made_kernel(Implementation implementation,
                                                              int block_side);

}  // namespace naive_matmul::testing
