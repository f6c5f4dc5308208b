// Chapter 06 benchmark: every step of the exercise and the solution, and CUB's
// DeviceReduce::Sum, on doubles with 256 threads per block, at n = 2^12, 2^16, 2^20 and 2^26
// (and the solution on floats at 2^26).
// Each sample times one reduction on the GPU: from before its first launch to after its last,
// the sum left in device memory, as CUB leaves it; the copy to the host comes after the timed
// region (and is checked). The host enqueues the launches while the GPU still flushes L2, so
// what is timed is the GPU's work: the kernels and the gaps between them.
// Counters: GB/s and %peak (of the nominal DRAM bandwidth), %ref (of CUB's GB/s at the same n,
// in the same run), launches (kernels per reduction; CUB's counted by capturing it in a graph).
// The Floor rows show the fixed costs: one and two empty launches timed the same way (what a
// launch costs on the GPU), and the copy of one double to the host that every caller adds.
//   meson test -C build --benchmark --suite 06-warp-reduction --verbose
#include <cub/device/device_reduce.cuh>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "course/benchmark.hpp"
#include "course/reduction_benchmark.hpp"
#include "warp_reduction.cuh"

namespace {

using course::bench::Reducer;
using warp_reduction::kStepFunctions;
constexpr int kBlockSize = 256;
constexpr int kRepetitions = 5;

// Random values, with the tests' summation depth on this GPU and so the same allowed error.
template <typename T>
const course::bench::ReductionInput<T>& input_of_size(std::size_t n) {
  return course::bench::random_sum_input<T>(
      n, warp_reduction::summation_depth(n, kBlockSize,
                                         course::bench::device().multiprocessor_count));
}

// Enough samples for a stable median; few enough that the whole table takes seconds.
benchmark::IterationCount iterations_for(std::size_t n) { return n >= (1u << 24) ? 20 : 200; }

// CUB's GB/s per element size and n, measured in this run.
using Case = std::pair<std::size_t, std::size_t>;
course::bench::ReferenceRates<Case>& cub_gb_per_s() {
  static course::bench::ReferenceRates<Case> measured;
  return measured;
}

// Next to time_reduction's GB/s and %peak: the launches and % of CUB's GB/s.
template <typename T>
void set_counters(benchmark::State& state, std::size_t n, int launches) {
  state.counters["launches"] = launches;
  const double cub = cub_gb_per_s().median({sizeof(T), n});
  if (cub > 0.0 && state.counters.count("GB/s")) {
    state.counters["%ref"] = 100.0 * state.counters["GB/s"] / cub;
  }
}

bool exercise_step_is_correct(int index) {
  return course::bench::probe_exercise([index] {
    const auto& input = input_of_size<double>(4096);
    warp_reduction::Workspace<double> workspace;
    return course::bench::close_enough(
        input, warp_reduction::exercise_step<double>(index)(input.device.data(), 4096, kBlockSize,
                                                            workspace));
  });
}

// The step leaves its sum on the device, as CUB does: the timed work is the launches alone.
template <typename T>
void bench_step(benchmark::State& state, bool is_solution, int index, std::size_t n) {
  const auto& input = input_of_size<T>(n);
  const auto reduce = is_solution ? warp_reduction::solution_step<T>(index)
                                  : warp_reduction::exercise_step<T>(index);
  warp_reduction::Workspace<T> workspace;
  workspace.leave_sum_on_device(true);
  if (course::bench::time_reduction(
          state, input,
          Reducer::implementation(is_solution, kStepFunctions[index].name, "06-warp-reduction"),
          [&] { reduce(input.device.data(), n, kBlockSize, workspace); },
          [&] { return workspace.copy_last_sum(); })) {
    set_counters<T>(state, n, workspace.launches());
  }
}

// Kernels that CUB launches for one DeviceReduce::Sum: captured into a graph, not run.
template <typename CubSum>
int cub_launches(CubSum& cub_sum) {
  cudaStream_t stream = nullptr;
  COURSE_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  COURSE_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t status = cub_sum(stream);
  COURSE_CHECK(cudaStreamEndCapture(stream, &graph));
  COURSE_CHECK(status);
  std::size_t count = 0;
  COURSE_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  COURSE_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  int kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    COURSE_CHECK(cudaGraphNodeGetType(node, &type));
    kernels += type == cudaGraphNodeTypeKernel;
  }
  COURSE_CHECK(cudaGraphDestroy(graph));
  COURSE_CHECK(cudaStreamDestroy(stream));
  return kernels;
}

template <typename T>
void bench_cub(benchmark::State& state, std::size_t n) {
  const auto& input = input_of_size<T>(n);
  course::DeviceBuffer<T> result(1);
  course::bench::CubCall cub_sum([&](void* scratch, std::size_t& bytes, cudaStream_t stream) {
    return cub::DeviceReduce::Sum(scratch, bytes, input.device.data(), result.data(), n, stream);
  });
  const auto copy_sum = [&] {
    T sum = 0;
    COURSE_CHECK(cudaMemcpy(&sum, result.data(), sizeof sum, cudaMemcpyDeviceToHost));
    return sum;
  };
  if (course::bench::time_reduction(state, input, Reducer::vendor("CUB"),
                                    [&] { COURSE_CHECK(cub_sum()); }, copy_sum)) {
    set_counters<T>(state, n, cub_launches(cub_sum));
    cub_gb_per_s().add({sizeof(T), n}, state.counters["GB/s"]);
    state.counters["%ref"] = 100.0;  // the reference itself
  }
}

__global__ void empty_kernel() {}

// `launches` empty kernels, timed like a reduction: what the launches alone cost on the GPU.
void bench_empty_launches(benchmark::State& state, int launches) {
  const auto timing = course::bench::time_gpu(state, [&] {
    for (int k = 0; k < launches; ++k) {
      empty_kernel<<<1, 1>>>();
      COURSE_CHECK_LAUNCH("empty_kernel");
    }
  });
  benchmark::DoNotOptimize(timing);
  state.counters["launches"] = launches;
}

// The copy of one double to the host: what every caller adds to get a sum back.
void bench_copy_to_host(benchmark::State& state) {
  course::DeviceBuffer<double> value(1);
  value.fill_bytes(0);
  double host = 0;
  const auto timing = course::bench::time_gpu(state, [&] {
    COURSE_CHECK(cudaMemcpy(&host, value.data(), sizeof host, cudaMemcpyDeviceToHost));
  });
  benchmark::DoNotOptimize(timing);
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  for (int launches : {1, 2}) {
    register_row("Floor/" + std::to_string(launches) + "_empty_launches", 200, kRepetitions,
                 [launches](benchmark::State& state) { bench_empty_launches(state, launches); });
  }
  register_row("Floor/copy_one_double_to_host", 200, kRepetitions, bench_copy_to_host);
  std::vector<bool> exercise_ok;
  for (int index = 0; index < warp_reduction::kStepFunctionCount; ++index) {
    exercise_ok.push_back(exercise_step_is_correct(index));
  }
  // Doubles at every size; floats at 2^26 too, where a step's instructions per byte count twice.
  const auto register_size = [&](auto type, const std::string& type_name, int log2n) {
    using T = decltype(type);
    const std::size_t n = std::size_t{1} << log2n;
    const std::string size = "/" + type_name + "/n=2^" + std::to_string(log2n);
    register_row("CUB/DeviceReduce::Sum" + size, iterations_for(n), kRepetitions,
                 [n](benchmark::State& state) { bench_cub<T>(state, n); });
    for (const bool is_solution : {false, true}) {
      if (!is_solution && !std::is_same_v<T, double>) continue;
      for (int index = 0; index < warp_reduction::kStepFunctionCount; ++index) {
        register_implementation_row(is_solution, exercise_ok[index], kStepFunctions[index].name + size,
                                    iterations_for(n), kRepetitions,
                                    [is_solution, index, n](benchmark::State& state) {
                                      bench_step<T>(state, is_solution, index, n);
                                    });
      }
    }
  };
  for (const int log2n : {12, 16, 20, 26}) register_size(double{}, "double", log2n);
  register_size(float{}, "float", 26);
}
