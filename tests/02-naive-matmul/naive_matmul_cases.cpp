#include "naive_matmul_cases.hpp"

#include "course/math.hpp"

namespace naive_matmul::testing {

void PrintTo(Implementation implementation, std::ostream* out) {
  *out << (implementation == Implementation::solution ? "solution" : "exercise");
}

std::string source_file(Implementation implementation) {
  return implementation == Implementation::solution ? "solutions/02-naive-matmul/naive_matmul.cu"
                                                    : "exercises/02-naive-matmul/naive_matmul.cu";
}

course::matmul::MatmulUnderTest kernel_with_correct_grid(Implementation impl, int side) {
  const std::string block = std::to_string(side) + "x" + std::to_string(side);
  return {"step 1, the kernel (" + block + " blocks, grid from the test)",
          source_file(impl) + " (matmul_kernel)",
          [impl, side](const float* M, const float* N, float* P, course::matmul::Shape shape) {
            const unsigned blocks = course::ceil_div(shape.n, side);
            const LaunchConfig config{dim3(blocks, blocks), dim3(side, side)};
            if (impl == Implementation::solution) {
              solution::launch_kernel(M, N, P, shape.n, config);
            } else {
              exercise::launch_kernel(M, N, P, shape.n, config);
            }
          }};
}

course::matmul::MatmulUnderTest config_with_ready_made_kernel(Implementation impl, int side) {
  const std::string block = std::to_string(side) + "x" + std::to_string(side);
  return {"step 2, launch_config (" + block + " blocks) with the solution's kernel",
          source_file(impl) + " (launch_config)",
          [impl, side](const float* M, const float* N, float* P, course::matmul::Shape shape) {
            if (impl == Implementation::solution) {
              solution::matmul(M, N, P, shape.n, side);  // its kernel with its launch_config
            } else {
              solution::launch_kernel(M, N, P, shape.n, exercise::launch_config(shape.n, side));
            }
          }};
}

}  // namespace naive_matmul::testing
