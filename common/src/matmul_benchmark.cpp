#include "course/matmul_benchmark.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <tuple>

#include "course/cublas.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/random.hpp"
#include "course/rounding.hpp"

namespace course::matmul {

namespace {

CublasHandle& cublas_fp32() {
  static CublasHandle handle(CUBLAS_PEDANTIC_MATH);
  return handle;
}

CublasHandle& cublas_tf32() {
  static CublasHandle handle(CUBLAS_TF32_TENSOR_OP_MATH);
  return handle;
}

// Row-major P = M x N is column-major P^T = N^T x M^T: swap the operands, no transposes.
void cublas_sgemm(CublasHandle& handle, const float* M, const float* N, float* P, Shape s) {
  const float one = 1.0f, zero = 0.0f;
  COURSE_CHECK_CUBLAS(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, N,
                                  s.n, M, s.k, &zero, P, s.n));
}

using Key = std::tuple<int, int, int>;
Key key_of(Shape s) { return {s.m, s.k, s.n}; }

struct Inputs {
  DeviceBuffer<float> M, N, P;
  std::vector<float> reference;  // cuBLAS FP32's product
  std::vector<float> magnitude;  // sum_k |M_ik||N_kj| per element
};

Inputs& inputs_for(Shape shape) {
  static std::map<Key, std::unique_ptr<Inputs>> cache;
  auto& slot = cache[key_of(shape)];
  if (!slot) {
    slot = std::make_unique<Inputs>();
    const std::vector<float> M = random_matrix(shape.m, shape.k, 11);
    const std::vector<float> N = random_matrix(shape.k, shape.n, 12);
    slot->M = DeviceBuffer<float>(M);
    slot->N = DeviceBuffer<float>(N);
    slot->P = DeviceBuffer<float>(static_cast<std::size_t>(shape.m) * shape.n);
    cublas_sgemm(cublas_fp32(), slot->M.data(), slot->N.data(), slot->P.data(), shape);
    slot->reference = slot->P.to_host();
    // sum_k |M_ik||N_kj| via cuBLAS on the absolute values.
    std::vector<float> absM(M.size()), absN(N.size());
    for (std::size_t i = 0; i < M.size(); ++i) absM[i] = std::fabs(M[i]);
    for (std::size_t i = 0; i < N.size(); ++i) absN[i] = std::fabs(N[i]);
    const DeviceBuffer<float> dM(absM), dN(absN);
    cublas_sgemm(cublas_fp32(), dM.data(), dN.data(), slot->P.data(), shape);
    slot->magnitude = slot->P.to_host();
  }
  return *slot;
}

// Both FP32 results may be gamma_(k+2) times the magnitude away from the exact product, so they
// may differ by twice as much. TF32 rounds both inputs to 10-bit mantissas first (2^-11 each).
double allowed_relative_difference(Shape shape, bool tf32) {
  const double gamma = rounding_gamma<float>(static_cast<std::size_t>(shape.k) + 2);
  return 2.1 * gamma + (tf32 ? 2.1 * std::ldexp(1.0, -10) : 0.0);
}

bool agrees_with_cublas(Inputs& in, const ShapedMatmul& run, Shape shape, bool tf32 = false) {
  in.P.fill_bytes(kPoisonByte);
  run(in.M.data(), in.N.data(), in.P.data(), shape);
  COURSE_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = in.P.to_host();
  const double relative = allowed_relative_difference(shape, tf32);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double bound = relative * in.magnitude[i] + 1e-30;
    if (!(std::fabs(double(got[i]) - in.reference[i]) <= bound)) return false;  // NaN fails too
  }
  return true;
}

bench::ReferenceRates<Key>& cublas_gflops() {
  static bench::ReferenceRates<Key> measured;
  return measured;
}

std::string shape_suffix(Shape s) {
  if (s.m == s.k && s.k == s.n) return "/Width:" + std::to_string(s.n);
  return "/" + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n);
}

void register_cublas(const std::string& name, Shape shape, bool tf32) {
  timed_row(benchmark::RegisterBenchmark(
            (name + shape_suffix(shape)).c_str(),
            [shape, tf32](benchmark::State& state) {
              Inputs& in = inputs_for(shape);
              CublasHandle& handle = tf32 ? cublas_tf32() : cublas_fp32();
              const ShapedMatmul run = [&handle](const float* M, const float* N, float* P,
                                                 Shape s) { cublas_sgemm(handle, M, N, P, s); };
              if (!bench::skip_unless_correct(state, agrees_with_cublas(in, run, shape, tf32),
                                              "cuBLAS disagrees with itself beyond the bound")) {
                return;
              }
              const auto timing = bench::time_gpu(
                  state, [&] { run(in.M.data(), in.N.data(), in.P.data(), shape); });
              const double f = flops(shape);
              if (!tf32) cublas_gflops().add(key_of(shape), f / timing.mean_seconds / 1e9);
              bench::set_flops_counters(state, timing, f, cublas_gflops().median(key_of(shape)));
            }),
        5);
}

}  // namespace

benchmark::internal::Benchmark* timed_row(benchmark::internal::Benchmark* row, int repetitions) {
  return bench::sampled(row, repetitions > 1 ? kSamplesPerRepetition : 1)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(repetitions)
      ->DisplayAggregatesOnly(true);
}

void register_cublas_row(Shape shape) { register_cublas("cuBLAS/SGEMM_FP32", shape, false); }

void register_cublas_tf32_row(Shape shape) {
  // TF32 tensor cores came with Ampere (compute capability 8.0); on an older GPU cuBLAS would
  // quietly compute FP32 under the TF32 label.
  if (bench::device().compute_capability_major < 8) return;
  register_cublas("cuBLAS/SGEMM_TF32_tensor_cores_NOT_FP32", shape, true);
}

void register_matmul_row(const std::string& name, ShapedMatmul run, Shape shape,
                         const std::string& why_wrong, int repetitions,
                         const benchmark::UserCounters& counters) {
  timed_row(benchmark::RegisterBenchmark(
            (name + shape_suffix(shape)).c_str(),
            [run, shape, why_wrong, counters](benchmark::State& state) {
              for (const auto& [counter, value] : counters) state.counters[counter] = value;
              Inputs& in = inputs_for(shape);
              if (!bench::skip_unless_correct(state, agrees_with_cublas(in, run, shape),
                                              why_wrong)) {
                return;
              }
              const auto timing = bench::time_gpu(
                  state, [&] { run(in.M.data(), in.N.data(), in.P.data(), shape); });
              bench::set_flops_counters(state, timing, flops(shape),
                                        cublas_gflops().median(key_of(shape)));
            }),
        repetitions);
}

void register_matmul_row(const std::string& name, SquareMatmul run, int width,
                         const std::string& why_wrong, int repetitions,
                         const benchmark::UserCounters& counters) {
  register_matmul_row(
      name,
      [run](const float* M, const float* N, float* P, Shape s) { run(M, N, P, s.n); },
      Shape::square(width), why_wrong, repetitions, counters);
}

bool matmul_agrees_with_cublas(const ShapedMatmul& run, Shape shape) {
  if (bench::profiling()) return true;  // see course::bench::profiling()
  return agrees_with_cublas(inputs_for(shape), run, shape);
}

bool matmul_agrees_with_cublas(const SquareMatmul& run, int width) {
  return matmul_agrees_with_cublas(
      [run](const float* M, const float* N, float* P, Shape s) { run(M, N, P, s.n); },
      Shape::square(width));
}

std::string disagrees_with_cublas(const std::string& who, const std::string& suite) {
  return who + " disagrees with cuBLAS; its tests say why: meson test -C build --suite " + suite;
}

void register_square_chapter(const std::string& chapter, const std::vector<int>& widths,
                             const std::string& exercise_name, const SquareMatmul& exercise,
                             const std::function<void(int width)>& other_rows, int check_width) {
  const int exercise_repetitions = matmul_agrees_with_cublas(exercise, check_width) ? 5 : 1;
  for (const int width : widths) {
    register_cublas_row(width);
    register_matmul_row("Exercise/" + exercise_name, exercise, width,
                        disagrees_with_cublas("the exercise", chapter + ":exercise"),
                        exercise_repetitions);
    other_rows(width);
  }
}

}  // namespace course::matmul
