// Chapter 04 benchmark: the exercise, the solution (tile widths 8, 16, 32: the sweep, with the
// shared memory each block uses), chapter 03's solution and cuBLAS SGEMM in plain FP32, at
// Width 4096 and 4097 (chapter 03 cannot do 4097).
//   meson test -C build --benchmark --suite 04-arbitrary-width-tiles --verbose
#include <string>

#include "arbitrary_width_tiles.cuh"
#include "course/matmul_benchmark.hpp"
#include "tiled_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  using course::matmul::register_matmul_row;
  const std::string wrong =
      " disagrees with cuBLAS; its tests say why: meson test -C build --suite ";
  const auto exercise_16 = [](const float* M, const float* N, float* P, int width) {
    arbitrary_width_tiles::exercise::matmul(M, N, P, width, 16);
  };
  const int exercise_repetitions = course::matmul::matmul_agrees_with_cublas(exercise_16) ? 5 : 1;
  for (const int width : {4096, 4097}) {
    course::matmul::register_cublas_row(width);
    register_matmul_row("Exercise/any_width_16", exercise_16, width,
                        "the exercise" + wrong + "04-arbitrary-width-tiles:exercise",
                        exercise_repetitions);
    for (const int tile : {8, 16, 32}) {
      // Two float tiles (Mds and Nds) per block.
      const double shared_bytes = 2.0 * tile * tile * sizeof(float);
      register_matmul_row(
          "Solution/any_width_" + std::to_string(tile),
          [tile](const float* M, const float* N, float* P, int w) {
            arbitrary_width_tiles::solution::matmul(M, N, P, w, tile);
          },
          width, "the solution" + wrong + "04-arbitrary-width-tiles:solution", 5,
          {{"smem_B/block", shared_bytes}});
    }
    if (width % 32 == 0) {
      register_matmul_row(
          "Chapter03/tiled_32",
          [](const float* M, const float* N, float* P, int w) {
            tiled_matmul::solution::matmul(M, N, P, w, 32);
          },
          width, "chapter 03's solution" + wrong + "03-tiled-matmul:solution");
    }
  }
}
