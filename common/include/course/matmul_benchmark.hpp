// Benchmark rows for the matmul chapters: cuBLAS SGEMM in plain FP32 (the vendor row,
// registered first for each shape so the others can report "% of cuBLAS"), cuBLAS with TF32
// tensor cores (a different precision, shown for where the hardware's bar is), and rows for any
// kernel, validated once against cuBLAS before they are timed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "course/benchmark.hpp"
#include "course/matmul.hpp"

namespace course::matmul {

// P = M x N for row-major device matrices of `shape`.
using ShapedMatmul = std::function<void(const float* M, const float* N, float* P, Shape shape)>;
// The square chapters' form: Width x Width.
using SquareMatmul = std::function<void(const float* M, const float* N, float* P, int width)>;

// Samples per repetition (unless course::bench::full_run()): each sample flushes L2 and runs
// the product once. 5 repetitions of this many give a stable median in a second or two per row.
inline constexpr int kSamplesPerRepetition = 10;

// How every matmul row is timed: manual (GPU event) time in milliseconds, `repetitions`
// repetitions of kSamplesPerRepetition samples each (1 sample when there is one repetition: an
// unfinished exercise's single skipped row), only the aggregates shown.
benchmark::internal::Benchmark* timed_row(benchmark::internal::Benchmark* row, int repetitions);

// "cuBLAS/SGEMM_FP32/Width:4096" (square) or ".../4096x1000x333" (m x k x n). Register it before
// the rows that compare with it.
void register_cublas_row(Shape shape);
inline void register_cublas_row(int width) { register_cublas_row(Shape::square(width)); }

// "cuBLAS/SGEMM_TF32_tensor_cores_NOT_FP32/<shape>": cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH.
// Its inputs are rounded to TF32 (10-bit mantissa): checked against its own, looser bound, and
// reported as % of the FP32 row. Only on GPUs with TF32 tensor cores (compute capability 8.0
// and newer).
void register_cublas_tf32_row(Shape shape);

// "<name>/<shape>": GFLOP/s and % of cuBLAS FP32 for that shape. A kernel that disagrees with
// cuBLAS beyond the float error bound is skipped with `why_wrong` (say which tests to run).
// `counters` are added to the row as they are (e.g. registers per thread).
void register_matmul_row(const std::string& name, ShapedMatmul run, Shape shape,
                         const std::string& why_wrong, int repetitions = 5,
                         const benchmark::UserCounters& counters = {});
void register_matmul_row(const std::string& name, SquareMatmul run, int width,
                         const std::string& why_wrong, int repetitions = 5,
                         const benchmark::UserCounters& counters = {});

// Runs `run` once on a small odd shape and checks it against cuBLAS: lets a chapter register
// an unfinished exercise with one repetition (one "skipped" line instead of one per repeat).
bool matmul_agrees_with_cublas(const ShapedMatmul& run, Shape shape = Shape::square(67));
bool matmul_agrees_with_cublas(const SquareMatmul& run, int width = 67);

// The skip text of a row that disagrees with cuBLAS: "<who> disagrees with cuBLAS; its tests say
// why: meson test -C build --suite <suite>", e.g. suite "03-tiled-matmul:solution".
std::string disagrees_with_cublas(const std::string& who, const std::string& suite);

// The square chapters' table. For each width: cuBLAS's row, "Exercise/<exercise_name>" (with 5
// repetitions, or 1 when `exercise` disagrees with cuBLAS at `check_width`: an unfinished exercise
// gets one skipped row per width, not one per repetition), then the rows `other_rows(width)`
// registers. `chapter` is the Meson suite ("02-naive-matmul").
void register_square_chapter(const std::string& chapter, const std::vector<int>& widths,
                             const std::string& exercise_name, const SquareMatmul& exercise,
                             const std::function<void(int width)>& other_rows,
                             int check_width = 67);

}  // namespace course::matmul
