// Chapter 08 benchmark: every step of the exercise and the solution against cuBLAS with the
// same types (cublasGemmEx: FP16 A and B, FP32 accumulation and C; the vendor row, % of it in
// %ref) at 4096 x 4096 x 4096, at 4097 x 4096 x 4097 (m and n tails, B's rows padded) and at
// 4096 x 1000 x 336 (m x k x n); plus chapter 07's cuBLAS FP32 and TF32 rows for scale (their
// own %ref is of the FP32 row). A step this GPU cannot run is skipped, saying what it needs
// (tensor_core_gemm::why_step_cannot_run). Counters: registers per
// thread and local memory (spill) bytes of each step's kernel.
// One more row, "Ceiling/mma_sync_from_registers_only": a kernel that does nothing but
// mma.sync.m16n8k16 on registers, no memory at all: the most that steps 2 and 3 could reach on
// this GPU, in the same run. (A .cu file for that kernel; the rest is host code.)
// And at 4096^3 the contrasts of steps.json: "Contrast/step3_without_swizzle" is step 3's
// solution with the swizzle taken out (generated into the build from its edit in steps.json), so
// the table shows what the swizzle buys and the profiler its bank conflicts.
//   meson test -C build --benchmark --suite 08-tensor-core-gemm --verbose
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "course/benchmark.hpp"
#include "course/cublas.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/matmul.hpp"
#include "course/matmul_benchmark.hpp"
#include "course/random.hpp"
#include "course/rounding.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm::contrast::step3_without_swizzle {
void step3_multistage_swizzle(const __half* A, const __half* B, float* C, int m, int k, int n);
}

namespace {

using course::matmul::Shape;
using Key = std::tuple<int, int, int>;
using Run = std::function<void(const __half* A, const __half* B, float* C, Shape s)>;

// cuBLAS in its default math mode: the tensor cores (the course's FP32 handle is pedantic).
course::CublasHandle& cublas() {
  static course::CublasHandle handle(CUBLAS_DEFAULT_MATH);
  return handle;
}

// Row-major C = A x B is column-major C^T = B^T x A^T: swap the operands, no transposes.
void cublas_gemm_ex(const __half* A, const __half* B, float* C, Shape s) {
  const float one = 1.0f, zero = 0.0f;
  COURSE_CHECK_CUBLAS(cublasGemmEx(cublas().get(), CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one,
                                   B, CUDA_R_16F, s.n, A, CUDA_R_16F, s.k, &zero, C, CUDA_R_32F,
                                   s.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

std::vector<__half> random_halves(std::size_t count, std::uint64_t seed) {
  const std::vector<float> values = course::random_floats(count, -1.0f, 1.0f, seed);
  std::vector<__half> halves(count);
  for (std::size_t i = 0; i < count; ++i) halves[i] = __float2half_rn(values[i]);
  return halves;
}

struct Inputs {
  course::DeviceBuffer<__half> A, B;
  course::DeviceBuffer<float> C;
  std::vector<float> reference;  // cuBLAS's product
  std::vector<float> magnitude;  // sum_k |A_ik||B_kj|, by cuBLAS on the absolute values
};

Inputs& inputs_for(Shape s) {
  static std::map<Key, std::unique_ptr<Inputs>> cache;
  auto& slot = cache[{s.m, s.k, s.n}];
  if (slot) return *slot;
  slot = std::make_unique<Inputs>();
  std::vector<__half> a = random_halves(static_cast<std::size_t>(s.m) * s.k, 21);
  std::vector<__half> b = random_halves(static_cast<std::size_t>(s.k) * s.n, 22);
  slot->A = course::DeviceBuffer<__half>(a);
  slot->B = course::DeviceBuffer<__half>(b);
  slot->C = course::DeviceBuffer<float>(static_cast<std::size_t>(s.m) * s.n);
  cublas_gemm_ex(slot->A.data(), slot->B.data(), slot->C.data(), s);
  slot->reference = slot->C.to_host();
  for (__half& h : a) h = __habs(h);
  for (__half& h : b) h = __habs(h);
  const course::DeviceBuffer<__half> abs_a(a), abs_b(b);
  cublas_gemm_ex(abs_a.data(), abs_b.data(), slot->C.data(), s);
  slot->magnitude = slot->C.to_host();
  return *slot;
}

// Both results may be gamma_(2 (k + 2)) times the magnitude from the exact product
// (tests/08-tensor-core-gemm/tensor_core_gemm_testing.hpp says why), so twice that apart.
bool agrees_with_cublas(Inputs& in, const Run& run, Shape s) {
  in.C.fill_bytes(course::kPoisonByte);
  run(in.A.data(), in.B.data(), in.C.data(), s);
  COURSE_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = in.C.to_host();
  const double relative =
      2.1 * course::rounding_gamma<float>(2 * (static_cast<std::size_t>(s.k) + 2));
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double bound = relative * in.magnitude[i] + 1e-30;
    if (!(std::fabs(double(got[i]) - in.reference[i]) <= bound)) return false;
  }
  return true;
}

course::bench::ReferenceRates<Key>& cublas_gflops() {
  static course::bench::ReferenceRates<Key> measured;
  return measured;
}

std::string suffix(Shape s) {
  return "/" + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n);
}

void register_row(const std::string& name, Run run, Shape s, bool vendor,
                  const std::string& why_wrong, int repetitions,
                  const benchmark::UserCounters& counters = {}) {
  course::matmul::timed_row(benchmark::RegisterBenchmark(
            (name + suffix(s)).c_str(),
            [=](benchmark::State& state) {
              for (const auto& [counter, value] : counters) state.counters[counter] = value;
              Inputs& in = inputs_for(s);
              if (!course::bench::skip_unless_correct(state, agrees_with_cublas(in, run, s),
                                                      why_wrong)) {
                return;
              }
              const auto timing = course::bench::time_gpu(
                  state, [&] { run(in.A.data(), in.B.data(), in.C.data(), s); });
              const double flops = course::matmul::flops(s);
              const Key key{s.m, s.k, s.n};
              if (vendor) cublas_gflops().add(key, flops / timing.mean_seconds / 1e9);
              course::bench::set_flops_counters(state, timing, flops,
                                                cublas_gflops().median(key));
            }),
        repetitions);
}

// A row of a step that this GPU cannot run: skipped, with the reason (the compute capability or
// the shared memory the step needs), like the step's tests.
void register_row_that_cannot_run(const std::string& name, Shape s, const std::string& why) {
  benchmark::RegisterBenchmark((name + suffix(s)).c_str(), [why](benchmark::State& state) {
    state.SkipWithError(why.c_str());
  })->Iterations(1);
}

// Eight independent accumulators per lane, so that the tensor cores never wait for a previous
// mma's result; the inputs depend on the lane so that nothing is constant.
constexpr int kCeilingWarps = 8, kCeilingChains = 8, kCeilingIterations = 4096;
__global__ void __launch_bounds__(kCeilingWarps * 32) mma_sync_from_registers_only(float* sink) {
  const std::uint32_t a[4] = {threadIdx.x, 2u, 3u, 4u}, b[2] = {5u, threadIdx.x};
  float d[kCeilingChains][4] = {};
  for (int i = 0; i < kCeilingIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kCeilingChains; ++c) tensor_core_gemm::mma_m16n8k16(d[c], a, b);
  }
  float sum = 0.0f;
  for (const auto& chain : d) sum += chain[0] + chain[1] + chain[2] + chain[3];
  if (sum == 1.0f) *sink = sum;  // never true in practice; keeps the work alive
}

void register_mma_ceiling_row(Shape s) {
  course::matmul::timed_row(benchmark::RegisterBenchmark(
            ("Ceiling/mma_sync_from_registers_only" + suffix(s)).c_str(),
            [s](benchmark::State& state) {
              static course::DeviceBuffer<float> sink(1);
              const int blocks = 4 * course::bench::device().multiprocessor_count;
              const auto timing = course::bench::time_gpu(state, [&] {
                mma_sync_from_registers_only<<<blocks, kCeilingWarps * 32>>>(sink.data());
                COURSE_CHECK(cudaGetLastError());
              });
              const double flops = 2.0 * 16 * 8 * 16 * kCeilingChains * kCeilingIterations *
                                   kCeilingWarps * static_cast<double>(blocks);
              course::bench::set_flops_counters(state, timing, flops,
                                                cublas_gflops().median({s.m, s.k, s.n}));
            }),
        5);
}

Run shaped(tensor_core_gemm::Gemm gemm) {
  return [gemm](const __half* A, const __half* B, float* C, Shape s) {
    gemm(A, B, C, s.m, s.k, s.n);
  };
}

std::string disagrees(const std::string& who, const char* implementation) {
  return course::matmul::disagrees_with_cublas(
      who, std::string("08-tensor-core-gemm:") + implementation);
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  using namespace tensor_core_gemm;
  std::string why_not[kStepCount];
  bool runs[kStepCount], exercise_ok[kStepCount];
  for (int step = 1; step <= kStepCount; ++step) {
    why_not[step - 1] = why_step_cannot_run(step);
    runs[step - 1] = why_not[step - 1].empty();
    exercise_ok[step - 1] = runs[step - 1] && (course::bench::profiling() ||
                                               agrees_with_cublas(inputs_for({67, 64, 72}),
                                                                  shaped(exercise_step(step)),
                                                                  {67, 64, 72}));
  }
  for (const Shape s : {Shape::square(4096), Shape{4097, 4096, 4097}, Shape{4096, 1000, 336}}) {
    register_row("cuBLAS/GemmEx_FP16_in_FP32_accumulate", cublas_gemm_ex, s, true,
                 "cuBLAS disagrees with itself beyond the bound", 5);
    course::matmul::register_cublas_row(s);
    course::matmul::register_cublas_tf32_row(s);
    if (s.m == 4096 && s.k == 4096 && runs[1]) register_mma_ceiling_row(s);  // mma.sync: CC 8.0+
    if (s.m == 4096 && s.k == 4096 && runs[2]) {
      register_row("Contrast/step3_without_swizzle",
                   shaped(contrast::step3_without_swizzle::step3_multistage_swizzle), s, false,
                   disagrees("step 3 without the swizzle", "solution"), 5);
    } else if (s.m == 4096 && s.k == 4096) {
      register_row_that_cannot_run("Contrast/step3_without_swizzle", s, why_not[2]);
    }
    for (int step = 1; step <= kStepCount; ++step) {
      const std::string name = kSteps[step - 1].name;
      if (!runs[step - 1]) {
        register_row_that_cannot_run("Exercise/" + name, s, why_not[step - 1]);
        register_row_that_cannot_run("Solution/" + name, s, why_not[step - 1]);
        continue;
      }
      const KernelResources used = solution_resources(step);
      register_row("Exercise/" + name, shaped(exercise_step(step)), s, false,
                   disagrees("the exercise's " + name, "exercise"), exercise_ok[step - 1] ? 5 : 1);
      register_row("Solution/" + name, shaped(solution_step(step)), s, false,
                   disagrees("the solution's " + name, "solution"), 5,
                   {{"regs", used.registers}, {"spill_B", static_cast<double>(used.local_bytes)}});
    }
  }
}
