#include "course/matmul_benchmark.hpp"

#include <cmath>
#include <map>
#include <memory>

#include "course/cublas.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/matmul.hpp"
#include "course/random.hpp"

namespace course::matmul {

namespace {

CublasHandle& cublas() {
  static CublasHandle handle;
  return handle;
}

// Row-major P = M x N is column-major P^T = N^T x M^T: swap the operands, no transposes.
void cublas_sgemm(const float* M, const float* N, float* P, int width) {
  const float one = 1.0f, zero = 0.0f;
  COURSE_CHECK_CUBLAS(cublasSgemm(cublas().get(), CUBLAS_OP_N, CUBLAS_OP_N, width, width, width,
                                  &one, N, width, M, width, &zero, P, width));
}

struct Inputs {
  DeviceBuffer<float> M, N, P;
  std::vector<float> reference;  // cuBLAS's product
  std::vector<float> bound;      // allowed |kernel - cuBLAS| per element
};

Inputs& inputs_for(int width) {
  static std::map<int, std::unique_ptr<Inputs>> cache;
  auto& slot = cache[width];
  if (!slot) {
    slot = std::make_unique<Inputs>();
    const std::vector<float> M = random_matrix(width, width, 11);
    const std::vector<float> N = random_matrix(width, width, 12);
    slot->M = DeviceBuffer<float>(M);
    slot->N = DeviceBuffer<float>(N);
    slot->P = DeviceBuffer<float>(static_cast<std::size_t>(width) * width);
    cublas_sgemm(slot->M.data(), slot->N.data(), slot->P.data(), width);
    slot->reference = slot->P.to_host();
    // sum_k |M_ik||N_kj| via cuBLAS on the absolute values; both results may be gamma_(k+2)
    // times that away from the exact product, so they may differ by twice as much.
    std::vector<float> absM(M.size()), absN(N.size());
    for (std::size_t i = 0; i < M.size(); ++i) absM[i] = std::fabs(M[i]);
    for (std::size_t i = 0; i < N.size(); ++i) absN[i] = std::fabs(N[i]);
    const DeviceBuffer<float> dM(absM), dN(absN);
    cublas_sgemm(dM.data(), dN.data(), slot->P.data(), width);
    slot->bound = slot->P.to_host();
    const double u = std::ldexp(1.0, -24), terms = width + 2.0;
    const double gamma = terms * u / (1.0 - terms * u);
    for (float& b : slot->bound) b = static_cast<float>(2.1 * gamma * b) + 1e-30f;
  }
  return *slot;
}

bool agrees_with_cublas(Inputs& in, const SquareMatmul& run, int width) {
  in.P.fill_bytes(kPoisonByte);
  run(in.M.data(), in.N.data(), in.P.data(), width);
  COURSE_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = in.P.to_host();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::fabs(got[i] - in.reference[i]) <= in.bound[i])) return false;  // NaN fails too
  }
  return true;
}

std::map<int, double>& cublas_gflops() {
  static std::map<int, double> measured;
  return measured;
}

std::string width_suffix(int width) { return "/Width:" + std::to_string(width); }

}  // namespace

void register_cublas_row(int width) {
  benchmark::RegisterBenchmark(("cuBLAS/SGEMM_FP32" + width_suffix(width)).c_str(),
                               [width](benchmark::State& state) {
                                 Inputs& in = inputs_for(width);
                                 const auto timing = bench::time_gpu(state, [&] {
                                   cublas_sgemm(in.M.data(), in.N.data(), in.P.data(), width);
                                 });
                                 const double f = flops(Shape::square(width));
                                 cublas_gflops()[width] = f / timing.mean_seconds / 1e9;
                                 bench::set_flops_counters(state, timing, f,
                                                           cublas_gflops()[width]);
                               })
      ->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(5)
      ->DisplayAggregatesOnly(true);
}

void register_matmul_row(const std::string& name, SquareMatmul run, int width,
                         const std::string& why_wrong, int repetitions,
                         const benchmark::UserCounters& counters) {
  benchmark::RegisterBenchmark(
      (name + width_suffix(width)).c_str(),
      [run, width, why_wrong, counters](benchmark::State& state) {
        for (const auto& [counter, value] : counters) state.counters[counter] = value;
        Inputs& in = inputs_for(width);
        if (!bench::skip_unless_correct(state, agrees_with_cublas(in, run, width), why_wrong)) {
          return;
        }
        const auto timing =
            bench::time_gpu(state, [&] { run(in.M.data(), in.N.data(), in.P.data(), width); });
        const auto reference = cublas_gflops().find(width);
        bench::set_flops_counters(state, timing, flops(Shape::square(width)),
                                  reference == cublas_gflops().end() ? 0.0 : reference->second);
      })
      ->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(repetitions)
      ->DisplayAggregatesOnly(true);
}

bool matmul_agrees_with_cublas(const SquareMatmul& run, int width) {
  return agrees_with_cublas(inputs_for(width), run, width);
}

}  // namespace course::matmul
