// Chapter 03 benchmark: the exercise, the solution for each tile width, chapter 02's naive
// solution and cuBLAS SGEMM in plain FP32, at Width 1024, 2048 and 4096.
//   meson test -C build --benchmark --suite 03-tiled-matmul --verbose
#include <string>

#include "course/matmul_benchmark.hpp"
#include "naive_matmul.cuh"
#include "samples_formulation.cuh"
#include "tiled_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  using course::matmul::disagrees_with_cublas;
  using course::matmul::register_matmul_row;
  course::matmul::register_square_chapter(
      "03-tiled-matmul", {1024, 2048, 4096}, "tiled_16",
      [](const float* M, const float* N, float* P, int width) {
        tiled_matmul::exercise::matmul(M, N, P, width, 16);
      },
      [](int width) {
        for (const int tile : tiled_matmul::kTileWidths) {
          register_matmul_row(
              "Solution/tiled_" + std::to_string(tile),
              [tile](const float* M, const float* N, float* P, int w) {
                tiled_matmul::solution::matmul(M, N, P, w, tile);
              },
              width, disagrees_with_cublas("the solution", "03-tiled-matmul:solution"));
        }
        register_matmul_row(
            "cuda-samples/matrixMul_32", tiled_matmul::samples::matmul, width,
            disagrees_with_cublas("the cuda-samples formulation", "03-tiled-matmul:solution"));
        register_matmul_row(
            "Chapter02/naive_16x16",
            [](const float* M, const float* N, float* P, int w) {
              naive_matmul::solution::matmul(M, N, P, w, 16);
            },
            width, disagrees_with_cublas("chapter 02's solution", "02-naive-matmul:solution"));
      },
      64);  // chapter 03 takes widths that are multiples of the tile; 67 is not
}
