// Chapter 07 benchmark: every step of the exercise and the solution against cuBLAS SGEMM in
// plain FP32 (the vendor row, % of it in %ref) at Width 4096, at the odd Width 4097 (the scalar
// path) and at the rectangular 4096 x 1000 x 333; step 4 with each compiled tiling; and cuBLAS
// with TF32 tensor cores, a different, lower precision, to show where tensor cores put the bar.
// Steps 4 and 5 also with each tiling they compile (and step 5 with and without split-K).
// Counters: registers per thread and local memory (spill) bytes of each step's kernel.
//   meson test -C build --benchmark --suite 07-register-tiled-sgemm --verbose
#include <string>

#include "course/matmul_benchmark.hpp"
#include "register_tiled_sgemm.cuh"

namespace {

using course::matmul::Shape;
using register_tiled_sgemm::kSteps;

course::matmul::ShapedMatmul shaped(register_tiled_sgemm::Sgemm sgemm) {
  return [sgemm](const float* M, const float* N, float* P, Shape s) {
    sgemm(M, N, P, s.m, s.k, s.n);
  };
}

benchmark::UserCounters resource_counters(const register_tiled_sgemm::KernelResources& used) {
  return {{"regs", used.registers}, {"spill_B", static_cast<double>(used.local_bytes)}};
}

std::string tiling_name(const register_tiled_sgemm::WarpTiling& t) {
  return "block" + std::to_string(t.block_m) + "x" + std::to_string(t.block_n) + "_warp" +
         std::to_string(t.warp_m) + "x" + std::to_string(t.warp_n) + "_" +
         std::to_string(t.threads) + "threads";
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  using course::matmul::register_matmul_row;
  const auto wrong = [](const std::string& who, const char* implementation) {
    return course::matmul::disagrees_with_cublas(
        who, std::string("07-register-tiled-sgemm:") + implementation);
  };
  bool exercise_ok[register_tiled_sgemm::kStepCount];
  for (int step = 1; step <= register_tiled_sgemm::kStepCount; ++step) {
    exercise_ok[step - 1] = course::matmul::matmul_agrees_with_cublas(
        shaped(register_tiled_sgemm::exercise_step(step)), Shape{67, 68, 72});
  }
  for (const Shape shape : {Shape::square(4096), Shape::square(4097), Shape{4096, 1000, 333}}) {
    course::matmul::register_cublas_row(shape);
    course::matmul::register_cublas_tf32_row(shape);
    for (int step = 1; step <= register_tiled_sgemm::kStepCount; ++step) {
      const std::string name = kSteps[step - 1].name;
      register_matmul_row("Exercise/" + name, shaped(register_tiled_sgemm::exercise_step(step)),
                          shape, wrong("the exercise's " + name, "exercise"),
                          exercise_ok[step - 1] ? 5 : 1);
      register_matmul_row("Solution/" + name, shaped(register_tiled_sgemm::solution_step(step)),
                          shape, wrong("the solution's " + name, "solution"), 5,
                          resource_counters(register_tiled_sgemm::solution_resources(step)));
    }
    // Step 5 with each of its tilings, its own split of k and none: what the choices buy.
    for (const auto& tiling : register_tiled_sgemm::kDoubleBufferedTilings) {
      for (const bool split : {true, false}) {
        const int splits = split ? 0 : 1;  // 0: as the default launcher chooses
        register_matmul_row(
            "Solution/step5_" + tiling_name(tiling) + (split ? "_split_k" : "_whole_k"),
            [tiling, splits](const float* M, const float* N, float* P, Shape s) {
              register_tiled_sgemm::solution::step5_double_buffering(
                  M, N, P, s.m, s.k, s.n, tiling,
                  splits > 0 ? splits
                             : register_tiled_sgemm::solution::step5_default_splits(s.m, s.k, s.n,
                                                                                   tiling));
            },
            shape, wrong("the solution's step5_double_buffering", "solution"), 5,
            resource_counters(register_tiled_sgemm::solution::step5_resources(tiling)));
      }
    }
    for (const auto& tiling : register_tiled_sgemm::kWarpTilings) {
      register_matmul_row(
          "Solution/step4_warptiling_" + tiling_name(tiling),
          [tiling](const float* M, const float* N, float* P, Shape s) {
            register_tiled_sgemm::solution::step4_warptiling(M, N, P, s.m, s.k, s.n, tiling);
          },
          shape, wrong("the solution's step4_warptiling", "solution"), 5,
          resource_counters(register_tiled_sgemm::solution::step4_resources(tiling)));
    }
  }
}
