// Chapter 05 benchmark: the five kernels of the exercise and of the solution, and CUB's
// DeviceReduce::Sum, on doubles with 256 threads per block, at n = 4096 (the classic size,
// where launch overhead dominates) and n = 2^26 (512 MiB, where bandwidth does). Each sample is
// timed end to end: every pass, and the final value copied to the host.
//   meson test -C build --benchmark --suite 05-reduction --verbose
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "course/benchmark.hpp"
#include "course/random.hpp"
#include "reduction.cuh"

namespace {

using reduction::kKernels;
constexpr int kBlockSize = 256;

struct Input {
  std::vector<double> host;
  course::DeviceBuffer<double> device;
  long double sum = 0;
  double bound = 0;  // allowed rounding error, the same bound as the tests
};

const Input& input_of_size(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Input>> inputs;
  auto& slot = inputs[n];
  if (!slot) {
    slot = std::make_unique<Input>();
    slot->host = course::random_doubles(n, -1.0, 1.0, n);
    slot->device = course::DeviceBuffer<double>(slot->host);
    slot->sum = reduction::cpu_sum(slot->host);
    slot->bound = reduction::rounding_error_bound(slot->host);
  }
  return *slot;
}

bool close_enough(const Input& input, double got) {
  return std::fabs(static_cast<long double>(got) - input.sum) <= input.bound;
}

bool exercise_kernel_is_correct(int number) {
  if (course::bench::profiling()) return true;  // see course::bench::profiling()
  const Input& input = input_of_size(4096);
  reduction::Workspace<double> workspace;
  return close_enough(input, reduction::reduce(reduction::exercise_pass<double>(number),
                                               kKernels[number - 1].elements_per_thread,
                                               input.device.data(), 4096, kBlockSize, workspace));
}

void bench_kernel(benchmark::State& state, bool is_solution, int number, std::size_t n) {
  const Input& input = input_of_size(n);
  const reduction::PassFn<double> pass = is_solution ? reduction::solution_pass<double>(number)
                                                     : reduction::exercise_pass<double>(number);
  const int per_thread = kKernels[number - 1].elements_per_thread;
  reduction::Workspace<double> workspace;
  const double check =
      reduction::reduce(pass, per_thread, input.device.data(), n, kBlockSize, workspace);
  const std::string who = is_solution ? "solution" : "exercise";
  if (!course::bench::skip_unless_correct(
          state, close_enough(input, check),
          who + " " + kKernels[number - 1].name + " gives a wrong sum; its tests say why: "
                "meson test -C build --suite 05-reduction:" + who)) {
    return;
  }
  const auto timing = course::bench::time_gpu(state, [&] {
    benchmark::DoNotOptimize(
        reduction::reduce(pass, per_thread, input.device.data(), n, kBlockSize, workspace));
  });
  course::bench::set_bandwidth_counters(state, timing, n * sizeof(double));
}

void bench_cub(benchmark::State& state, std::size_t n) {
  const Input& input = input_of_size(n);
  course::DeviceBuffer<double> result(1);
  std::size_t temp_bytes = 0;
  COURSE_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, input.device.data(), result.data(), n));
  course::DeviceBuffer<unsigned char> temp(temp_bytes);
  double host_result = 0;
  auto run = [&] {
    COURSE_CHECK(
        cub::DeviceReduce::Sum(temp.data(), temp_bytes, input.device.data(), result.data(), n));
    COURSE_CHECK(cudaMemcpy(&host_result, result.data(), sizeof host_result,
                            cudaMemcpyDeviceToHost));
  };
  run();
  if (!course::bench::skip_unless_correct(state, close_enough(input, host_result),
                                          "CUB gave a wrong sum")) {
    return;
  }
  const auto timing = course::bench::time_gpu(state, run);
  course::bench::set_bandwidth_counters(state, timing, n * sizeof(double));
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  std::vector<bool> exercise_ok;
  for (const auto& kernel : kKernels) exercise_ok.push_back(exercise_kernel_is_correct(kernel.number));
  for (const int log2n : {12, 26}) {
    const std::size_t n = std::size_t{1} << log2n;
    const std::string size = "/double/n=2^" + std::to_string(log2n);
    // Samples per repetition: a 20-us sample needs more of them for a stable median.
    const int samples = log2n < 20 ? 200 : 20;
    for (const bool is_solution : {false, true}) {
      for (const auto& kernel : kKernels) {
        const int repetitions = is_solution || exercise_ok[kernel.number - 1] ? 5 : 1;
        course::bench::sampled(
            benchmark::RegisterBenchmark(
                (std::string(is_solution ? "Solution/" : "Exercise/") + kernel.name + size).c_str(),
                bench_kernel, is_solution, kernel.number, n),
            repetitions > 1 ? samples : 1)
            ->UseManualTime()->Unit(benchmark::kMicrosecond)->Repetitions(repetitions)
            ->DisplayAggregatesOnly(true);
      }
    }
    course::bench::sampled(
        benchmark::RegisterBenchmark(("CUB/DeviceReduce::Sum" + size).c_str(), bench_cub, n),
        samples)
        ->UseManualTime()->Unit(benchmark::kMicrosecond)->Repetitions(5)
        ->DisplayAggregatesOnly(true);
  }
}
