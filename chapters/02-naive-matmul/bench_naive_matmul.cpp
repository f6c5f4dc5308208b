// Chapter 02 benchmark: the exercise, the solution with three block sizes, and cuBLAS SGEMM in
// plain FP32, at Width 1024, 2048, 4096 and the odd 4097. GFLOP/s and % of cuBLAS.
//   meson test -C build --benchmark --suite 02-naive-matmul --verbose
#include <string>

#include "course/matmul_benchmark.hpp"
#include "naive_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  using course::matmul::register_matmul_row;
  const std::string wrong =
      " disagrees with cuBLAS; its tests say why: meson test -C build --suite 02-naive-matmul:";
  const auto exercise_16 = [](const float* M, const float* N, float* P, int width) {
    naive_matmul::exercise::matmul(M, N, P, width, 16);
  };
  // An unfinished exercise gets one skipped row per width, not one per repetition.
  const int exercise_repetitions = course::matmul::matmul_agrees_with_cublas(exercise_16) ? 5 : 1;
  for (const int width : {1024, 2048, 4096, 4097}) {
    course::matmul::register_cublas_row(width);
    register_matmul_row("Exercise/naive_16x16", exercise_16, width,
                        "the exercise" + wrong + "exercise", exercise_repetitions);
    for (const int side : {8, 16, 32}) {
      const std::string block = std::to_string(side) + "x" + std::to_string(side);
      register_matmul_row(
          "Solution/naive_" + block,
          [side](const float* M, const float* N, float* P, int w) {
            naive_matmul::solution::matmul(M, N, P, w, side);
          },
          width, "the solution" + wrong + "solution");
    }
  }
}
