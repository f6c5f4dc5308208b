// Chapter 01 benchmark: every step of the exercise and of the solution, and CUB, on the same
// inputs, timed end to end as the learner's program experiences it (kernel, copy of the partial
// sums back, the host's final addition; CUB until its result is on the host).
// Plus step 0's load latency for working sets in L1, in L2 and in DRAM only.
//
//   meson compile -C build compare-01-sum-of-squares      (the table, and JSON in build/)
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "course/benchmark.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "course/random.hpp"
#include "course/reduction_benchmark.hpp"
#include "sum_of_squares.cuh"

namespace {

using namespace sum_of_squares;
using course::bench::Reducer;

constexpr const char* kExerciseTests = "meson test -C build --suite 01-sum-of-squares:exercise";
// Samples per repetition (./course compare --full: as many as Google Benchmark wants).
constexpr int kSamples = 10;

// Bench inputs: the same random ints as the tests use, with their exact sum of squares.
using Input = course::bench::ReductionInput<int, std::uint64_t>;
const Input& input_of_size(std::size_t n) {
  return course::bench::cached_input<int, std::uint64_t>(n, [](std::size_t count) {
    const std::vector<int> host = course::random_ints(count, -(1 << 20), 1 << 20, count);
    return Input{course::DeviceBuffer<int>(host), cpu_sum_of_squares(host)};
  });
}

// Steps 4 and 5: enough blocks to fill every multiprocessor, but no fewer than
// kMinElementsPerThread elements per thread, so that small inputs do not pay for copying back
// and adding up more partial sums than there is work.
constexpr int kGridThreads = 256;
constexpr std::size_t kMinElementsPerThread = 32;
int grid_blocks(std::size_t n) {
  const auto& gpu = course::bench::device();
  const std::size_t fill = static_cast<std::size_t>(gpu.multiprocessor_count) *
                           (gpu.max_threads_per_multiprocessor / kGridThreads);
  const std::size_t useful = course::ceil_div(n, kGridThreads * kMinElementsPerThread);
  return static_cast<int>(std::max<std::size_t>(1, std::min(fill, useful)));
}
constexpr int kOneBlockThreads = 1024;  // steps 2 and 3: the largest block there is

using StepFn = Result (*)(const int*, std::size_t, int, int, Workspace&);

struct StepEntry {
  const char* name;
  StepFn solution;
  StepFn exercise;
  bool grid;      // uses grid_blocks(n) blocks; otherwise one block
  int threads;    // per block
  int max_log2n;  // larger inputs would take seconds per sample
};

// Adapters to one signature (blocks and threads ignored where a step fixes them).
template <Result (*F)(const int*, std::size_t, Workspace&)>
Result no_config(const int* in, std::size_t n, int, int, Workspace& ws) { return F(in, n, ws); }
template <Result (*F)(const int*, std::size_t, int, Workspace&)>
Result threads_only(const int* in, std::size_t n, int, int threads, Workspace& ws) {
  return F(in, n, threads, ws);
}

const StepEntry kTimedSteps[] = {
    {"step1_one_thread", no_config<solution::step1_one_thread>,
     no_config<exercise::step1_one_thread>, false, 1, 20},
    {"step2_contiguous_chunks", threads_only<solution::step2_contiguous_chunks>,
     threads_only<exercise::step2_contiguous_chunks>, false, kOneBlockThreads, 24},
    {"step3_interleaved", threads_only<solution::step3_interleaved>,
     threads_only<exercise::step3_interleaved>, false, kOneBlockThreads, 28},
    {"step4_grid_stride", solution::step4_grid_stride, exercise::step4_grid_stride, true,
     kGridThreads, 28},
    {"step5_block_reduction", solution::step5_block_reduction,
     exercise::step5_block_reduction, true, kGridThreads, 28},
};
static_assert(std::size(kTimedSteps) == kStepCount - 1 && kFirstStep == 0,
              "a row per step of steps.json but step 0 (the pointer chase, timed apart)");

void bench_step(benchmark::State& state, const StepEntry& step, bool is_solution, std::size_t n) {
  const Input& input = input_of_size(n);
  const int blocks = step.grid ? grid_blocks(n) : 1;
  const int threads = step.threads;
  const StepFn run = is_solution ? step.solution : step.exercise;
  Workspace workspace;
  // Both rows point at the learner's tests, the exercise's.
  const Reducer reducer{std::string(is_solution ? "solution " : "exercise ") + step.name,
                        kExerciseTests};
  Result last;
  if (course::bench::time_reduction(
          state, input, reducer,
          [&] { last = run(input.device.data(), n, blocks, threads, workspace); },
          [&] { return last.sum; })) {
    state.counters["blocks"] = blocks;
    state.counters["threads"] = threads;
    state.counters["gpu_cycles"] = static_cast<double>(last.gpu_cycles);
  }
}

// CUB's TransformReduce: square each int to 64 bits, add. Its scratch memory is allocated once,
// outside the timed region, like the steps' workspace.
struct SquareToU64 {
  __device__ unsigned long long operator()(int x) const {
    return static_cast<unsigned long long>(static_cast<long long>(x) * x);
  }
};

void bench_cub(benchmark::State& state, std::size_t n) {
  const Input& input = input_of_size(n);
  course::DeviceBuffer<unsigned long long> result(1);
  course::bench::CubCall cub_sum([&](void* scratch, std::size_t& bytes, cudaStream_t stream) {
    return cub::DeviceReduce::TransformReduce(scratch, bytes, input.device.data(), result.data(),
                                              n, cuda::std::plus<>{}, SquareToU64{}, 0ull,
                                              stream);
  });
  course::bench::time_reduction(state, input, Reducer::vendor("CUB"), [&] {
    COURSE_CHECK(cub_sum());
    unsigned long long sum = 0;
    COURSE_CHECK(cudaMemcpy(&sum, result.data(), sizeof sum, cudaMemcpyDeviceToHost));
    return sum;
  });
}

// Step 0: load latency. The iteration time is the kernel's own measurement of the timed
// chase (globaltimer), not the launch: the warm-up lap is left out.
void bench_latency(benchmark::State& state, bool is_solution, std::size_t working_set_bytes,
                   std::size_t timed_loads) {
  const std::size_t n = working_set_bytes / sizeof(std::uint32_t);
  const std::vector<std::uint32_t> next = random_cycle(n, n);
  const course::DeviceBuffer<std::uint32_t> device_next(next);
  auto run = [&] {
    return is_solution ? solution::step0_pointer_chase(device_next.data(), n, timed_loads)
                       : exercise::step0_pointer_chase(device_next.data(), n, timed_loads);
  };
  // Validation with 1001 loads: no multiple of the cycle length, so a chase that never moves
  // (still at index 0) cannot pass by luck.
  const std::size_t probe_loads = 1001;
  const LatencyResult probe =
      is_solution ? solution::step0_pointer_chase(device_next.data(), n, probe_loads)
                  : exercise::step0_pointer_chase(device_next.data(), n, probe_loads);
  if (!course::bench::skip_unless_correct(
          state, probe.final_index == cpu_pointer_chase(next, probe.warmup_loads + probe_loads),
          std::string(is_solution ? "solution" : "exercise") +
              " step0_pointer_chase does not follow next[]; its tests say why: " +
              kExerciseTests)) {
    return;
  }
  LatencyResult result;
  for (auto _ : state) {
    // Every sample starts from a cold L2: the kernel's own warm-up lap is what fills it.
    course::bench::shared_l2_flusher().flush();
    COURSE_CHECK(cudaDeviceSynchronize());
    result = run();
    state.SetIterationTime(result.nanoseconds * 1e-9);
  }
  state.counters["cycles/load"] = result.cycles_per_load();
  state.counters["ns/load"] = result.ns_per_load();
}

// The exercise is probed once at registration: a wrong or unfinished step gets one skipped
// row with a pointer to its tests, instead of one per repetition.
bool exercise_step_is_correct(const StepEntry& step) {
  return course::bench::probe_exercise([&step] {
    const Input& input = input_of_size(4099);
    Workspace workspace;
    const int blocks = step.grid ? 3 : 1;
    const Result result =
        step.exercise(input.device.data(), input.size(), blocks, step.threads, workspace);
    return course::bench::close_enough(input, result.sum);
  });
}

bool exercise_chase_is_correct() {
  return course::bench::probe_exercise([] {
    const std::vector<std::uint32_t> next = {1, 2, 0};  // 0 -> 1 -> 2 -> 0
    const course::DeviceBuffer<std::uint32_t> device_next(next);
    const LatencyResult result = exercise::step0_pointer_chase(device_next.data(), 3, 1001);
    return result.final_index == cpu_pointer_chase(next, result.warmup_loads + 1001);
  });
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  // Working sets: 16 KiB stays in L1; 1 MiB in L2 (one full warm-up lap first, so every
  // timed load hits); 256 MiB only fits in DRAM.
  struct Latency { const char* level; std::size_t bytes; std::size_t timed_loads; };
  const Latency latencies[] = {{"L1_16KiB", 16 << 10, 1 << 16},
                               {"L2_1MiB", 1 << 20, (1 << 20) / 4},
                               {"DRAM_256MiB", std::size_t{256} << 20, 1 << 16}};
  const bool exercise_chase_ok = exercise_chase_is_correct();
  for (const bool is_solution : {false, true}) {
    for (const Latency& latency : latencies) {
      const int repetitions = is_solution || exercise_chase_ok ? 3 : 1;
      benchmark::RegisterBenchmark(
          (std::string(is_solution ? "Solution" : "Exercise") + "/step0_latency/" + latency.level)
              .c_str(),
          bench_latency, is_solution, latency.bytes, latency.timed_loads)
          ->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(3)
          ->Repetitions(repetitions)->DisplayAggregatesOnly(true);
    }
  }

  course::bench::register_copy_bandwidth_benchmark(std::size_t{1} << 30);

  std::vector<bool> exercise_ok;
  for (const StepEntry& step : kTimedSteps) exercise_ok.push_back(exercise_step_is_correct(step));

  for (const int log2n : {20, 24, 28}) {
    const std::size_t n = std::size_t{1} << log2n;
    const std::string size = "/n=2^" + std::to_string(log2n);
    for (const bool is_solution : {false, true}) {
      for (std::size_t s = 0; s < std::size(kTimedSteps); ++s) {
        const StepEntry& step = kTimedSteps[s];
        if (log2n > step.max_log2n) continue;
        register_implementation_row(is_solution, exercise_ok[s], step.name + size, kSamples, 5,
                                    [step, is_solution, n](benchmark::State& state) {
                                      bench_step(state, step, is_solution, n);
                                    });
      }
    }
    register_row("CUB/TransformReduce" + size, kSamples, 5,
                 [n](benchmark::State& state) { bench_cub(state, n); });
  }
}
