// Chapter 02 benchmark: the exercise, the solution with three block sizes, and cuBLAS SGEMM in
// plain FP32, at Width 1024, 2048, 4096 and the odd 4097. GFLOP/s and % of cuBLAS.
//   meson test -C build --benchmark --suite 02-naive-matmul --verbose
#include <string>

#include "course/matmul_benchmark.hpp"
#include "naive_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  course::matmul::register_square_chapter(
      "02-naive-matmul", {1024, 2048, 4096, 4097}, "naive_16x16",
      [](const float* M, const float* N, float* P, int width) {
        naive_matmul::exercise::matmul(M, N, P, width, 16);
      },
      [](int width) {
        for (const int side : {8, 16, 32}) {
          const std::string block = std::to_string(side) + "x" + std::to_string(side);
          course::matmul::register_matmul_row(
              "Solution/naive_" + block,
              [side](const float* M, const float* N, float* P, int w) {
                naive_matmul::solution::matmul(M, N, P, w, side);
              },
              width,
              course::matmul::disagrees_with_cublas("the solution", "02-naive-matmul:solution"));
        }
      });
}
