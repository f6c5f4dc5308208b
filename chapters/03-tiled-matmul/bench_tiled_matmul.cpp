// Chapter 03 benchmark: the exercise, the solution for each tile width, chapter 02's naive
// solution and cuBLAS SGEMM in plain FP32, at Width 1024, 2048 and 4096.
//   meson test -C build --benchmark --suite 03-tiled-matmul --verbose
#include <string>

#include "course/matmul_benchmark.hpp"
#include "naive_matmul.cuh"
#include "samples_formulation.cuh"
#include "tiled_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  using course::matmul::register_matmul_row;
  const std::string wrong =
      " disagrees with cuBLAS; its tests say why: meson test -C build --suite ";
  const auto exercise_16 = [](const float* M, const float* N, float* P, int width) {
    tiled_matmul::exercise::matmul(M, N, P, width, 16);
  };
  const int exercise_repetitions =
      course::matmul::matmul_agrees_with_cublas(exercise_16, 64) ? 5 : 1;
  for (const int width : {1024, 2048, 4096}) {
    course::matmul::register_cublas_row(width);
    register_matmul_row("Exercise/tiled_16", exercise_16, width,
                        "the exercise" + wrong + "03-tiled-matmul:exercise", exercise_repetitions);
    for (const int tile : tiled_matmul::kTileWidths) {
      register_matmul_row(
          "Solution/tiled_" + std::to_string(tile),
          [tile](const float* M, const float* N, float* P, int w) {
            tiled_matmul::solution::matmul(M, N, P, w, tile);
          },
          width, "the solution" + wrong + "03-tiled-matmul:solution");
    }
    register_matmul_row("cuda-samples/matrixMul_32", tiled_matmul::samples::matmul, width,
                        "the cuda-samples formulation" + wrong + "03-tiled-matmul:solution");
    register_matmul_row(
        "Chapter02/naive_16x16",
        [](const float* M, const float* N, float* P, int w) {
          naive_matmul::solution::matmul(M, N, P, w, 16);
        },
        width, "chapter 02's solution" + wrong + "02-naive-matmul:solution");
  }
}
