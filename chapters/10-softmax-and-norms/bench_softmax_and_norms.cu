// Chapter 10 benchmark: every softmax step of the exercise and the solution on FP32 rows of 1K,
// 4K, 32K and 256K columns, LayerNorm and RMSNorm on FP16 rows of 4K and 8K columns, and a
// device-to-device copy of the same bytes (the floor: a row-wise kernel reads every element at
// least once and writes it once, as a copy does). Every matrix is 256 MiB (as many rows as that
// takes), far more than the L2 holds.
// Each sample times one call on the GPU, all its launches, with CUDA events; L2 is flushed before
// every sample. Counters: GB/s counts the matrix read once and written once for every row, so
// that rates compare; %peak of the nominal DRAM bandwidth; %copy of the copy's GB/s at the same
// shape, in the same run (the median of its repetitions); launches.
// Each row's output is checked against the CPU's (three whole rows: the first, a middle one and
// the last) before and after it is timed: a wrong result is never timed. A step that does not take
// a row that long (steps 2 and 3 hold at most 32768 columns on chip) is skipped with why.
//   meson test -C build --benchmark --suite 10-softmax-and-norms --verbose
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "course/benchmark.hpp"
#include "course/device_buffer.hpp"
#include "course/reduction_benchmark.hpp"
#include "softmax_and_norms.cuh"

namespace {

using namespace softmax_and_norms;

constexpr int kRepetitions = 3;
constexpr benchmark::IterationCount kSamples = 20;
constexpr std::size_t kMatrixBytes = std::size_t{256} << 20;
constexpr float kEpsilon = 1e-5f;

// Seeded values from a fast generator (64 Mi of them per matrix): uniform in [low, high).
std::vector<float> values(std::size_t n, float low, float high, std::uint64_t state) {
  std::vector<float> out(n);
  for (float& v : out) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = low + (high - low) * static_cast<float>(state >> 40) * 0x1.0p-24f;
  }
  return out;
}

// A matrix of `cols` columns and 256 MiB on the GPU, an output of the same shape, and the CPU's
// result for the checked rows.
template <typename T>
struct Case {
  long long rows = 0, cols = 0;
  course::DeviceBuffer<T> input, output, gamma, beta;  // gamma, beta: the norms only
  std::vector<long long> checked;                      // row numbers
  std::vector<std::vector<double>> expected;           // softmax, or [layer norm, rms norm] x rows
  double bytes() const { return 2.0 * static_cast<double>(rows * cols * sizeof(T)); }
};

std::vector<long long> checked_rows(long long rows) { return {0, rows / 2, rows - 1}; }

template <typename T>
void upload(course::DeviceBuffer<T>& buffer, const std::vector<float>& x) {
  std::vector<T> host(x.begin(), x.end());
  if constexpr (!std::is_same_v<T, float>) {
    for (std::size_t i = 0; i < x.size(); ++i) host[i] = __float2half(x[i]);
  }
  buffer = course::DeviceBuffer<T>(x.size());
  COURSE_CHECK(
      cudaMemcpy(buffer.data(), host.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// The case of `cols` columns: made by fill(c) (which uploads the data and computes the checked
// rows' results) the first time it is asked for, then kept for the whole program.
template <typename T, typename Fill>
Case<T>& cached_case(long long cols, Fill&& fill) {
  static std::map<long long, std::unique_ptr<Case<T>>> cases;
  auto& slot = cases[cols];
  if (!slot) {
    slot = std::make_unique<Case<T>>();
    slot->cols = cols;
    slot->rows = static_cast<long long>(kMatrixBytes / sizeof(T)) / cols;
    slot->checked = checked_rows(slot->rows);
    fill(*slot);
  }
  return *slot;
}

Case<float>& softmax_case(long long cols) {
  return cached_case<float>(cols, [cols](Case<float>& c) {
    const std::vector<float> x = values(c.rows * cols, -8.0f, 8.0f, cols);
    upload(c.input, x);
    c.output = course::DeviceBuffer<float>(x.size());
    for (const long long r : c.checked) {
      c.expected.push_back(
          cpu_softmax(std::vector<float>(x.begin() + r * cols, x.begin() + (r + 1) * cols), 1,
                      cols));
    }
  });
}

Case<__half>& norm_case(long long cols) {
  return cached_case<__half>(cols, [cols](Case<__half>& c) {
    std::vector<float> x = values(c.rows * cols, -4.0f, 4.0f, cols + 1);
    std::vector<float> gamma = values(cols, 0.5f, 1.5f, 2), beta = values(cols, -1.0f, 1.0f, 3);
    for (auto* v : {&x, &gamma, &beta}) {
      for (float& e : *v) e = __half2float(__float2half(e));
    }
    upload(c.input, x);
    upload(c.gamma, gamma);
    upload(c.beta, beta);
    c.output = course::DeviceBuffer<__half>(x.size());
    for (const bool layer : {true, false}) {
      for (const long long r : c.checked) {
        const std::vector<float> row(x.begin() + r * cols, x.begin() + (r + 1) * cols);
        c.expected.push_back(
            cpu_norm(row, gamma, layer ? beta : std::vector<float>{}, 1, cols, kEpsilon).output);
      }
    }
  });
}

// Whether the checked rows of the output hold the expected values (`first`: the index of the
// first of them in c.expected), within a loose bound (the tests check every element tightly).
template <typename T>
bool output_is_right(const Case<T>& c, std::size_t first = 0) {
  std::vector<T> row(c.cols);
  for (std::size_t k = 0; k < c.checked.size(); ++k) {
    COURSE_CHECK(cudaMemcpy(row.data(), c.output.data() + c.checked[k] * c.cols,
                            c.cols * sizeof(T), cudaMemcpyDeviceToHost));
    const std::vector<double>& expected = c.expected[first + k];
    for (long long i = 0; i < c.cols; ++i) {
      const double got = static_cast<double>(static_cast<float>(row[i]));
      const double bound = std::is_same_v<T, float> ? 1e-4 * expected[i] + 1e-30
                                                    : 4e-3 * std::fabs(expected[i]) + 1e-3;
      if (!(std::fabs(got - expected[i]) <= bound)) return false;
    }
  }
  return true;
}

// The copy's rate per (element size, cols).
using Key = std::pair<std::size_t, long long>;
course::bench::ReferenceRates<Key>& copy_rates() {
  static course::bench::ReferenceRates<Key> rates;
  return rates;
}

template <typename T>
void set_share(benchmark::State& state, long long cols) {
  const double copy = copy_rates().median(Key(sizeof(T), cols));
  if (copy > 0.0 && state.counters.count("GB/s")) {
    state.counters["%copy"] = 100.0 * state.counters["GB/s"] / copy;
  }
}

// Checks one run of `work`, times it, checks again; a step that refuses the shape is skipped
// with its own message.
template <typename T, typename Work>
void time_row(benchmark::State& state, Case<T>& c, const std::string& wrong, std::size_t first,
              Work&& work) {
  c.output.fill_bytes(0xFF);
  try {
    work();
  } catch (const std::invalid_argument& refused) {
    state.SkipWithError(refused.what());
    return;
  }
  COURSE_CHECK(cudaDeviceSynchronize());
  if (!course::bench::skip_unless_correct(state, output_is_right(c, first), wrong)) return;
  c.output.fill_bytes(0xFF);
  const auto timing = course::bench::time_gpu(state, work);
  if (!course::bench::skip_unless_correct(state, output_is_right(c, first),
                                          wrong + " (in the timed runs)")) {
    return;
  }
  course::bench::set_bandwidth_counters(state, timing, c.bytes());
  set_share<T>(state, c.cols);
}

std::string wrong_text(bool is_solution, const char* name) {
  return std::string(is_solution ? "solution " : "exercise ") + name +
         " gives a wrong result; its tests say why: meson test -C build --suite "
         "10-softmax-and-norms:" + (is_solution ? "solution" : "exercise");
}

void bench_softmax(benchmark::State& state, bool is_solution, int index, long long cols) {
  auto& c = softmax_case(cols);
  const SoftmaxFn softmax = is_solution ? solution_softmax(index) : exercise_softmax(index);
  Workspace workspace;
  time_row(state, c, wrong_text(is_solution, kSoftmaxSteps[index].name), 0, [&] {
    softmax(c.input.data(), c.output.data(), c.rows, c.cols, workspace);
  });
  if (state.counters.count("GB/s")) state.counters["launches"] = workspace.launches();
}

void bench_norm(benchmark::State& state, bool is_solution, int index, long long cols) {
  auto& c = norm_case(cols);
  const bool layer = index == 0;
  time_row(state, c, wrong_text(is_solution, kNormSteps[index].name),
           layer ? 0 : c.checked.size(), [&] {
             if (layer) {
               (is_solution ? solution::step5_layer_norm : exercise::step5_layer_norm)(
                   c.input.data(), c.output.data(), c.gamma.data(), c.beta.data(), c.rows,
                   c.cols, kEpsilon);
             } else {
               (is_solution ? solution::step5_rms_norm : exercise::step5_rms_norm)(
                   c.input.data(), c.output.data(), c.gamma.data(), c.rows, c.cols, kEpsilon);
             }
           });
  if (state.counters.count("GB/s")) state.counters["launches"] = 1;
}

// The floor: cudaMemcpyAsync of the same bytes, device to device.
template <typename T>
void bench_copy(benchmark::State& state, Case<T>& c) {
  const auto timing = course::bench::time_gpu(state, [&] {
    COURSE_CHECK(cudaMemcpyAsync(c.output.data(), c.input.data(), c.bytes() / 2,
                                 cudaMemcpyDeviceToDevice));
  });
  course::bench::set_bandwidth_counters(state, timing, c.bytes());
  copy_rates().add(Key(sizeof(T), c.cols), state.counters["GB/s"]);
  state.counters["%copy"] = 100.0;
}

// The exercise's probe: 37 rows of 1000 columns (softmax) or 8 of 1000 (norms), against the CPU.
bool softmax_exercise_is_correct(int index) {
  return course::bench::probe_exercise([index] {
    constexpr long long rows = 37, cols = 1000;
    const std::vector<float> x = values(rows * cols, -8.0f, 8.0f, 5);
    course::DeviceBuffer<float> input, output(x.size());
    upload(input, x);
    output.fill_bytes(0xFF);
    Workspace workspace;
    exercise_softmax(index)(input.data(), output.data(), rows, cols, workspace);
    std::vector<float> got(x.size());
    COURSE_CHECK(cudaMemcpy(got.data(), output.data(), x.size() * sizeof(float),
                            cudaMemcpyDeviceToHost));
    const std::vector<double> expected = cpu_softmax(x, rows, cols);
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (!(std::fabs(got[i] - expected[i]) <= 1e-4 * expected[i] + 1e-30)) return false;
    }
    return true;
  });
}

bool norm_exercise_is_correct(int index) {
  return course::bench::probe_exercise([index] {
    constexpr long long rows = 8, cols = 1000;
    const std::vector<float> x = values(rows * cols, -4.0f, 4.0f, 6);
    std::vector<float> gamma(cols, 1.0f), beta(cols, 0.0f);
    course::DeviceBuffer<__half> input, g, b, output(x.size());
    upload(input, x);
    upload(g, gamma);
    upload(b, beta);
    output.fill_bytes(0xFF);
    if (index == 0) {
      exercise::step5_layer_norm(input.data(), output.data(), g.data(), b.data(), rows, cols,
                                 kEpsilon);
    } else {
      exercise::step5_rms_norm(input.data(), output.data(), g.data(), rows, cols, kEpsilon);
    }
    std::vector<__half> got(x.size());
    COURSE_CHECK(cudaMemcpy(got.data(), output.data(), x.size() * sizeof(__half),
                            cudaMemcpyDeviceToHost));
    std::vector<float> rounded(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) rounded[i] = __half2float(__float2half(x[i]));
    const NormReference ref =
        cpu_norm(rounded, gamma, index == 0 ? beta : std::vector<float>{}, rows, cols, kEpsilon);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double e = ref.output[i], value = __half2float(got[i]);
      if (!(std::fabs(value - e) <= 4e-3 * std::fabs(e) + 1e-3)) return false;
    }
    return true;
  });
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  std::vector<bool> softmax_ok, norm_ok;
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    softmax_ok.push_back(softmax_exercise_is_correct(index));
  }
  for (int index = 0; index < kNormStepCount; ++index) {
    norm_ok.push_back(norm_exercise_is_correct(index));
  }
  for (const long long cols : {1024LL, 4096LL, 32768LL, 262144LL}) {
    const std::string shape = "/float/cols=" + std::to_string(cols);
    register_row("Floor/device_copy" + shape, kSamples, kRepetitions,
                 [cols](benchmark::State& state) { bench_copy(state, softmax_case(cols)); });
    for (const bool is_solution : {false, true}) {
      for (int index = 0; index < kSoftmaxStepCount; ++index) {
        register_implementation_row(
            is_solution, softmax_ok[index], kSoftmaxSteps[index].name + shape, kSamples,
            kRepetitions, [is_solution, index, cols](benchmark::State& state) {
              bench_softmax(state, is_solution, index, cols);
            });
      }
    }
  }
  for (const long long cols : {4096LL, 8192LL}) {
    const std::string shape = "/half/cols=" + std::to_string(cols);
    register_row("Floor/device_copy" + shape, kSamples, kRepetitions,
                 [cols](benchmark::State& state) { bench_copy(state, norm_case(cols)); });
    for (const bool is_solution : {false, true}) {
      for (int index = 0; index < kNormStepCount; ++index) {
        register_implementation_row(
            is_solution, norm_ok[index], kNormSteps[index].name + shape, kSamples, kRepetitions,
            [is_solution, index, cols](benchmark::State& state) {
              bench_norm(state, is_solution, index, cols);
            });
      }
    }
  }
}
