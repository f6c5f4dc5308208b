// Benchmark rows for the square matmul chapters: cuBLAS SGEMM in plain FP32 (the vendor row,
// registered first for each width so the others can report "% of cuBLAS"), and rows for any
// kernel, validated once against cuBLAS before they are timed.
#pragma once

#include <functional>
#include <string>

#include "course/benchmark.hpp"

namespace course::matmul {

// P = M x N for Width x Width row-major device matrices.
using SquareMatmul = std::function<void(const float* M, const float* N, float* P, int width)>;

// "cuBLAS/SGEMM_FP32/Width:<width>". Register it before the rows that compare with it.
void register_cublas_row(int width);

// "<name>/Width:<width>": GFLOP/s and % of cuBLAS at that width. A kernel that disagrees with
// cuBLAS beyond the float error bound is skipped with `why_wrong` (say which tests to run).
// `counters` are added to the row as they are (e.g. the shared memory a block uses).
void register_matmul_row(const std::string& name, SquareMatmul run, int width,
                         const std::string& why_wrong, int repetitions = 5,
                         const benchmark::UserCounters& counters = {});

// Runs `run` once at a small odd width and checks it against cuBLAS: lets a chapter register
// an unfinished exercise with one repetition (one "skipped" line instead of one per repeat).
bool matmul_agrees_with_cublas(const SquareMatmul& run, int width = 67);

}  // namespace course::matmul
