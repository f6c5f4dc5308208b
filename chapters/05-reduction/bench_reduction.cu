// Chapter 05 benchmark: the five kernels of the exercise and of the solution, and CUB's
// DeviceReduce::Sum, on doubles with 256 threads per block, at n = 4096 (the classic size,
// where launch overhead dominates) and n = 2^26 (512 MiB, where bandwidth does). Each sample is
// timed end to end: every pass, and the final value copied to the host.
//   meson test -C build --benchmark --suite 05-reduction --verbose
#include <cub/device/device_reduce.cuh>

#include <string>
#include <vector>

#include "course/benchmark.hpp"
#include "course/reduction_benchmark.hpp"
#include "reduction.cuh"

namespace {

using course::bench::Reducer;
using reduction::kSteps;
constexpr int kBlockSize = 256;

// Random doubles, with the tests' summation depth and so the same allowed rounding error.
const course::bench::ReductionInput<double>& input_of_size(std::size_t n) {
  return course::bench::random_sum_input<double>(n, reduction::summation_depth(n));
}

bool exercise_kernel_is_correct(int number) {
  return course::bench::probe_exercise([number] {
    const auto& input = input_of_size(4096);
    reduction::Workspace<double> workspace;
    return course::bench::close_enough(
        input, reduction::reduce(reduction::exercise_pass<double>(number),
                                 reduction::elements_per_thread(number), input.device.data(),
                                 4096, kBlockSize, workspace));
  });
}

void bench_kernel(benchmark::State& state, bool is_solution, int number, std::size_t n) {
  const auto& input = input_of_size(n);
  const reduction::PassFn<double> pass = is_solution ? reduction::solution_pass<double>(number)
                                                     : reduction::exercise_pass<double>(number);
  const int per_thread = reduction::elements_per_thread(number);
  reduction::Workspace<double> workspace;
  const Reducer reducer =
      Reducer::implementation(is_solution, kSteps[number - 1].name, "05-reduction");
  course::bench::time_reduction(state, input, reducer, [&] {
    return reduction::reduce(pass, per_thread, input.device.data(), n, kBlockSize, workspace);
  });
}

void bench_cub(benchmark::State& state, std::size_t n) {
  const auto& input = input_of_size(n);
  course::DeviceBuffer<double> result(1);
  course::bench::CubCall cub_sum([&](void* scratch, std::size_t& bytes, cudaStream_t stream) {
    return cub::DeviceReduce::Sum(scratch, bytes, input.device.data(), result.data(), n, stream);
  });
  course::bench::time_reduction(state, input, Reducer::vendor("CUB"), [&] {
    COURSE_CHECK(cub_sum());
    double sum = 0;
    COURSE_CHECK(cudaMemcpy(&sum, result.data(), sizeof sum, cudaMemcpyDeviceToHost));
    return sum;
  });
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  std::vector<bool> exercise_ok;
  for (const auto& kernel : kSteps) {
    exercise_ok.push_back(exercise_kernel_is_correct(kernel.number));
  }
  for (const int log2n : {12, 26}) {
    const std::size_t n = std::size_t{1} << log2n;
    const std::string size = "/double/n=2^" + std::to_string(log2n);
    // Samples per repetition: a 20-us sample needs more of them for a stable median.
    const int samples = log2n < 20 ? 200 : 20;
    for (const bool is_solution : {false, true}) {
      for (const auto& kernel : kSteps) {
        const int number = kernel.number;
        register_implementation_row(is_solution, exercise_ok[number - 1], kernel.name + size,
                                    samples, 5, [is_solution, number, n](benchmark::State& state) {
                                      bench_kernel(state, is_solution, number, n);
                                    });
      }
    }
    register_row("CUB/DeviceReduce::Sum" + size, samples, 5,
                 [n](benchmark::State& state) { bench_cub(state, n); });
  }
}
