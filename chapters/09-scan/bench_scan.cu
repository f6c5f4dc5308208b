// Chapter 09 benchmark: every step of the exercise and the solution, CUB's
// DeviceScan::InclusiveSum, and a device-to-device copy of the same bytes (the floor: a scan
// reads every element once and writes it once, as a copy does), on ints at n = 2^16, 2^20, 2^24,
// 2^28 and 2^30, and on floats at 2^20 and 2^28 (solution and CUB).
// Each sample times one scan on the GPU, its launches and memsets, with CUDA events; L2 is
// flushed before every sample. Counters: GB/s counts 2n elements (read once, written once) for
// every row, so that rates compare; %peak of the nominal DRAM bandwidth; %ref of CUB's GB/s and
// %copy of the copy's at the same n, in the same run (medians of their repetitions); launches.
// Each row's output is checked against the CPU's scan (a sample of elements, and the last
// tile whole) before and after it is timed: a wrong result is never timed.
//   meson test -C build --benchmark --suite 09-scan --verbose
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "course/benchmark.hpp"
#include "course/device_buffer.hpp"
#include "course/reduction_benchmark.hpp"
#include "scan.cuh"

namespace {

constexpr int kRepetitions = 3;

benchmark::IterationCount samples_for(std::size_t n) {
  return n >= (std::size_t{1} << 28) ? 10 : n >= (std::size_t{1} << 24) ? 30 : 100;
}

// The input of one size and type on the GPU with an output buffer, and the reference values at
// the checked positions: every 4093rd element and the last 4096.
template <typename T>
struct ScanCase {
  course::DeviceBuffer<T> input, output;
  std::vector<std::size_t> checked;
  std::vector<T> expected;
};

constexpr std::size_t kStride = 4093;

std::vector<std::size_t> checked_positions(std::size_t n) {
  std::vector<std::size_t> positions;
  const std::size_t tail = n > 4096 ? n - 4096 : 0;
  for (std::size_t i = 0; i < tail; i += kStride) positions.push_back(i);
  for (std::size_t i = tail; i < n; ++i) positions.push_back(i);
  return positions;
}

// Ints in [-1000, 1000], floats in [-1, 1), from a fast seeded generator (2^30 of them).
template <typename T>
T value_at(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  const std::uint32_t bits = static_cast<std::uint32_t>(state >> 33);
  if constexpr (std::is_same_v<T, int>) {
    return static_cast<int>(bits % 2001) - 1000;
  } else {
    return static_cast<float>(bits) * 0x1.0p-30f - 1.0f;
  }
}

template <typename T>
ScanCase<T>& case_of(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<ScanCase<T>>> cases;
  auto& slot = cases[n];
  if (slot) return *slot;
  slot = std::make_unique<ScanCase<T>>();
  std::vector<T> host(n);
  std::uint64_t state = n;
  for (T& value : host) value = value_at<T>(state);
  slot->input = course::DeviceBuffer<T>(n);
  slot->output = course::DeviceBuffer<T>(n);
  COURSE_CHECK(cudaMemcpy(slot->input.data(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  slot->checked = checked_positions(n);
  // Ints modulo 2^32; floats in double, checked with a loose bound below.
  std::size_t next = 0;
  std::uint32_t sum_int = 0;
  double sum_float = 0;
  for (std::size_t i = 0; i < n && next < slot->checked.size(); ++i) {
    if constexpr (std::is_same_v<T, int>) {
      sum_int += static_cast<std::uint32_t>(host[i]);
    } else {
      sum_float += host[i];
    }
    if (slot->checked[next] == i) {
      slot->expected.push_back(std::is_same_v<T, int> ? static_cast<T>(static_cast<int>(sum_int))
                                                      : static_cast<T>(sum_float));
      ++next;
    }
  }
  return *slot;
}

// Whether the output holds the scan at the checked positions (poisoned before the run): the
// strided ones in one 2D copy, the last tile in another.
template <typename T>
bool output_is_right(ScanCase<T>& c) {
  std::vector<T> got(c.checked.size());
  const std::size_t n = c.output.size();
  const std::size_t tail = n > 4096 ? n - 4096 : 0;
  const std::size_t strided = tail == 0 ? 0 : (tail - 1) / kStride + 1;
  if (strided > 0) {
    COURSE_CHECK(cudaMemcpy2D(got.data(), sizeof(T), c.output.data(), kStride * sizeof(T),
                              sizeof(T), strided, cudaMemcpyDeviceToHost));
  }
  COURSE_CHECK(cudaMemcpy(got.data() + strided, c.output.data() + tail, (n - tail) * sizeof(T),
                          cudaMemcpyDeviceToHost));
  for (std::size_t k = 0; k < got.size(); ++k) {
    if constexpr (std::is_same_v<T, int>) {
      if (got[k] != c.expected[k]) return false;
    } else {
      // Far looser than the tests' bound (gamma_L sum |x_j|), which they check element by element.
      const double bound = 1e-3 * static_cast<double>(c.checked[k] + 1) + 1e-3;
      if (!(std::fabs(static_cast<double>(got[k]) - c.expected[k]) <= bound)) return false;
    }
  }
  return true;
}

// The rates of the reference rows, per (element size, n): CUB's and the copy's.
using Key = std::pair<std::size_t, std::size_t>;
course::bench::ReferenceRates<Key>& cub_rates() {
  static course::bench::ReferenceRates<Key> rates;
  return rates;
}
course::bench::ReferenceRates<Key>& copy_rates() {
  static course::bench::ReferenceRates<Key> rates;
  return rates;
}

template <typename T>
void set_shares(benchmark::State& state, std::size_t n) {
  if (!state.counters.count("GB/s")) return;
  const double cub = cub_rates().median({sizeof(T), n});
  const double copy = copy_rates().median({sizeof(T), n});
  if (cub > 0.0) state.counters["%ref"] = 100.0 * state.counters["GB/s"] / cub;
  if (copy > 0.0) state.counters["%copy"] = 100.0 * state.counters["GB/s"] / copy;
}

// Checks the result of one run of `work`, times it, checks again. False: skipped.
template <typename T, typename Work>
bool time_scan(benchmark::State& state, ScanCase<T>& c, std::size_t n, const std::string& wrong,
               Work&& work) {
  c.output.fill_bytes(0xFF);
  work();
  COURSE_CHECK(cudaDeviceSynchronize());
  if (!course::bench::skip_unless_correct(state, output_is_right(c), wrong)) return false;
  c.output.fill_bytes(0xFF);
  const auto timing = course::bench::time_gpu(state, work);
  if (!course::bench::skip_unless_correct(state, output_is_right(c),
                                          wrong + " (in the timed runs)")) {
    return false;
  }
  course::bench::set_bandwidth_counters(state, timing, 2.0 * static_cast<double>(n * sizeof(T)));
  return true;
}

template <typename T>
void bench_step(benchmark::State& state, bool is_solution, int index, std::size_t n) {
  auto& c = case_of<T>(n);
  const auto scan = is_solution ? scan::solution_step<T>(index) : scan::exercise_step<T>(index);
  scan::Workspace workspace;
  const std::string what = std::string(is_solution ? "solution " : "exercise ") +
                           scan::kStepFunctions[index].name;
  if (time_scan(state, c, n,
                what + " gives a wrong scan; its tests say why: meson test -C build --suite "
                       "09-scan:" + (is_solution ? "solution" : "exercise"),
                [&] { scan(c.input.data(), c.output.data(), static_cast<long long>(n), workspace); })) {
    state.counters["launches"] = workspace.launches();
    set_shares<T>(state, n);
  }
}

template <typename T>
void bench_cub(benchmark::State& state, std::size_t n) {
  auto& c = case_of<T>(n);
  course::bench::CubCall cub_scan([&](void* scratch, std::size_t& bytes, cudaStream_t stream) {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, c.input.data(), c.output.data(),
                                         static_cast<long long>(n), stream);
  });
  if (time_scan(state, c, n, "CUB gave a wrong scan", [&] { COURSE_CHECK(cub_scan()); })) {
    cub_rates().add({sizeof(T), n}, state.counters["GB/s"]);
    state.counters["%ref"] = 100.0;
    set_shares<T>(state, n);
  }
}

// The floor: cudaMemcpyAsync of the same bytes, device to device (read n, write n).
template <typename T>
void bench_copy(benchmark::State& state, std::size_t n) {
  auto& c = case_of<T>(n);
  const auto timing = course::bench::time_gpu(state, [&] {
    COURSE_CHECK(cudaMemcpyAsync(c.output.data(), c.input.data(), n * sizeof(T),
                                 cudaMemcpyDeviceToDevice));
  });
  course::bench::set_bandwidth_counters(state, timing, 2.0 * static_cast<double>(n * sizeof(T)));
  copy_rates().add({sizeof(T), n}, state.counters["GB/s"]);
  state.counters["%copy"] = 100.0;
}

bool exercise_is_correct(int index) {
  return course::bench::probe_exercise([index] {
    constexpr std::size_t n = 3 * scan::kTileItems + 5;
    auto& c = case_of<int>(n);
    c.output.fill_bytes(0xFF);
    scan::Workspace workspace;
    scan::exercise_step<int>(index)(c.input.data(), c.output.data(), n, workspace);
    COURSE_CHECK(cudaDeviceSynchronize());
    return output_is_right(c);
  });
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  std::vector<bool> exercise_ok;
  for (int index = 0; index < scan::kStepFunctionCount; ++index) {
    exercise_ok.push_back(exercise_is_correct(index));
  }
  const auto register_size = [&](auto type, const std::string& type_name, int log2n,
                                 bool with_exercise) {
    using T = decltype(type);
    const std::size_t n = std::size_t{1} << log2n;
    const std::string size = "/" + type_name + "/n=2^" + std::to_string(log2n);
    register_row("Floor/device_copy" + size, samples_for(n), kRepetitions,
                 [n](benchmark::State& state) { bench_copy<T>(state, n); });
    register_row("CUB/DeviceScan::InclusiveSum" + size, samples_for(n), kRepetitions,
                 [n](benchmark::State& state) { bench_cub<T>(state, n); });
    for (const bool is_solution : {false, true}) {
      if (!is_solution && !with_exercise) continue;
      for (int index = 0; index < scan::kStepFunctionCount; ++index) {
        register_implementation_row(
            is_solution, exercise_ok[index], scan::kStepFunctions[index].name + size,
            samples_for(n), kRepetitions, [is_solution, index, n](benchmark::State& state) {
              bench_step<T>(state, is_solution, index, n);
            });
      }
    }
  };
  for (const int log2n : {16, 20, 24, 28, 30}) register_size(int{}, "int", log2n, true);
  for (const int log2n : {20, 28}) register_size(float{}, "float", log2n, false);
}
