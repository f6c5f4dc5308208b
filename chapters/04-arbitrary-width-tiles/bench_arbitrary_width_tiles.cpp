// Chapter 04 benchmark: the exercise, the solution (tile widths 8, 16, 32: the sweep, with the
// shared memory each block uses), chapter 03's solution and cuBLAS SGEMM in plain FP32, at
// Width 4096 and 4097 (chapter 03 cannot do 4097).
//   meson test -C build --benchmark --suite 04-arbitrary-width-tiles --verbose
#include <string>

#include "arbitrary_width_tiles.cuh"
#include "course/matmul_benchmark.hpp"
#include "tiled_matmul.cuh"

void course::bench::register_chapter_benchmarks() {
  using course::matmul::disagrees_with_cublas;
  using course::matmul::register_matmul_row;
  course::matmul::register_square_chapter(
      "04-arbitrary-width-tiles", {4096, 4097}, "any_width_16",
      [](const float* M, const float* N, float* P, int width) {
        arbitrary_width_tiles::exercise::matmul(M, N, P, width, 16);
      },
      [](int width) {
        for (const int tile : {8, 16, 32}) {
          // Two float tiles (Mds and Nds) per block.
          const double shared_bytes = 2.0 * tile * tile * sizeof(float);
          register_matmul_row(
              "Solution/any_width_" + std::to_string(tile),
              [tile](const float* M, const float* N, float* P, int w) {
                arbitrary_width_tiles::solution::matmul(M, N, P, w, tile);
              },
              width, disagrees_with_cublas("the solution", "04-arbitrary-width-tiles:solution"), 5,
              {{"smem_B/block", shared_bytes}});
        }
        if (width % 32 == 0) {
          register_matmul_row(
              "Chapter03/tiled_32",
              [](const float* M, const float* N, float* P, int w) {
                tiled_matmul::solution::matmul(M, N, P, w, 32);
              },
              width, disagrees_with_cublas("chapter 03's solution", "03-tiled-matmul:solution"));
        }
      });
}
