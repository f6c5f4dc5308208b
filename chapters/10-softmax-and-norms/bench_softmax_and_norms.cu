// Chapter 10 benchmark: every softmax step of the exercise and the solution on FP32 rows of 1K,
// 4K, 32K and 256K columns, with cuDNN's softmax beside them where the build found cuDNN;
// LayerNorm and RMSNorm on FP16 and on BF16 rows of 4K and 8K columns; and for each element type
// and shape a device-to-device copy of the same bytes (the floor: a row-wise kernel reads every
// element at least once and writes it once, as a copy does). Every matrix is 256 MiB (as many rows
// as that takes), far more than the L2 holds.
// Each sample times one call on the GPU, all its launches, with CUDA events; L2 is flushed before
// every sample. Counters: GB/s counts the matrix read once and written once for every row, so
// that rates compare; %peak of the nominal DRAM bandwidth; %copy of the copy's GB/s at the same
// shape, in the same run (the median of its repetitions); launches.
// Each row's output is checked against the CPU's (three whole rows: the first, a middle one and
// the last) before and after it is timed: a wrong result is never timed. A step that does not take
// a row that long (steps 2 and 3 hold at most 32768 columns on chip) is skipped with why; so is
// the cuDNN row where cuDNN is missing or unusable.
//   meson test -C build --benchmark --suite 10-softmax-and-norms --verbose
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if COURSE_HAVE_CUDNN
#include <cudnn.h>
#endif

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

// The element types, as the rows name them ("step5_rms_norm/bfloat16/cols=4096"), and a float
// rounded to the nearest of them.
template <typename T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, __half>) return "half";
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bfloat16";
}
template <typename T>
T to_element(float x) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(x);
  if constexpr (std::is_same_v<T, float>) return x;
}
template <typename T>
float rounded_to(float x) {
  return static_cast<float>(to_element<T>(x));
}

template <typename T>
void upload(course::DeviceBuffer<T>& buffer, const std::vector<float>& x) {
  std::vector<T> host(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) host[i] = to_element<T>(x[i]);
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

// The norms' case for elements of type T (__half or __nv_bfloat16).
template <typename T>
Case<T>& norm_case(long long cols) {
  return cached_case<T>(cols, [cols](Case<T>& c) {
    std::vector<float> x = values(c.rows * cols, -4.0f, 4.0f, cols + 1);
    std::vector<float> gamma = values(cols, 0.5f, 1.5f, 2), beta = values(cols, -1.0f, 1.0f, 3);
    for (auto* v : {&x, &gamma, &beta}) {
      for (float& e : *v) e = rounded_to<T>(e);
    }
    upload(c.input, x);
    upload(c.gamma, gamma);
    upload(c.beta, beta);
    c.output = course::DeviceBuffer<T>(x.size());
    for (const bool layer : {true, false}) {
      for (const long long r : c.checked) {
        const std::vector<float> row(x.begin() + r * cols, x.begin() + (r + 1) * cols);
        c.expected.push_back(
            cpu_norm(row, gamma, layer ? beta : std::vector<float>{}, 1, cols, kEpsilon).output);
      }
    }
  });
}

// The loose bound of output_is_right, relative: about 8 roundings of the output's type (FP16
// 2^-11, BF16 2^-8), and 1e-4 for FP32 softmax.
template <typename T>
constexpr double loose_bound() {
  return std::is_same_v<T, float> ? 1e-4 : std::is_same_v<T, __half> ? 4e-3 : 3e-2;
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
      const double bound = std::is_same_v<T, float>
                               ? loose_bound<T>() * expected[i] + 1e-30
                               : loose_bound<T>() * std::fabs(expected[i]) + 1e-3;
      if (!(std::fabs(got - expected[i]) <= bound)) return false;
    }
  }
  return true;
}

// The copy's rate per (element type, cols).
using Key = std::pair<std::string, long long>;
course::bench::ReferenceRates<Key>& copy_rates() {
  static course::bench::ReferenceRates<Key> rates;
  return rates;
}

template <typename T>
void set_share(benchmark::State& state, long long cols) {
  const double copy = copy_rates().median(Key(type_name<T>(), cols));
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
  } catch (const StepNeedsAnotherGpu& cannot) {  // step 6 below compute capability 9.0
    state.SkipWithError(cannot.what());
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

template <typename T>
void bench_norm(benchmark::State& state, bool is_solution, int index, long long cols) {
  auto& c = norm_case<T>(cols);
  const bool layer = index == 0;
  const LayerNormFn<T> layer_norm = layer_norm_of<T>(is_solution);
  const RmsNormFn<T> rms_norm = rms_norm_of<T>(is_solution);
  time_row(state, c, wrong_text(is_solution, kNormSteps[index].name),
           layer ? 0 : c.checked.size(), [&] {
             if (layer) {
               layer_norm(c.input.data(), c.output.data(), c.gamma.data(), c.beta.data(), c.rows,
                          c.cols, kEpsilon);
             } else {
               rms_norm(c.input.data(), c.output.data(), c.gamma.data(), c.rows, c.cols,
                        kEpsilon);
             }
           });
  if (state.counters.count("GB/s")) state.counters["launches"] = 1;
}

// The vendor row: cuDNN's softmax, where the build found cuDNN (COURSE_HAVE_CUDNN).
#if COURSE_HAVE_CUDNN
// cuDNN is there but cannot do the job on this machine (no handle: no cuDNN build for this GPU
// or driver, a sub-library missing): the row is skipped with cuDNN's own words.
class CudnnUnusable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void check_cudnn(cudnnStatus_t status, const char* call) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  throw CudnnUnusable(std::string("cuDNN ") + std::to_string(cudnnGetVersion()) + ": " + call +
                      " failed: " + cudnnGetErrorString(status) +
                      "; the cuDNN row is skipped (./course doctor checks the GPU and driver)");
}

// cudnnSoftmaxForward (the legacy API) on a rows x cols x 1 x 1 NCHW tensor: MODE_INSTANCE
// normalizes over C x H x W, here one row; ACCURATE subtracts the max first, as the steps do.
// One handle and descriptor for the whole program, made by the first (untimed) call.
class CudnnSoftmax {
 public:
  CudnnSoftmax() = default;
  CudnnSoftmax(const CudnnSoftmax&) = delete;
  CudnnSoftmax& operator=(const CudnnSoftmax&) = delete;
  ~CudnnSoftmax() {
    if (tensor_ != nullptr) cudnnDestroyTensorDescriptor(tensor_);
    if (handle_ != nullptr) cudnnDestroy(handle_);
  }
  void run(const float* input, float* output, long long rows, long long cols) {
    if (handle_ == nullptr) check_cudnn(cudnnCreate(&handle_), "cudnnCreate");
    if (tensor_ == nullptr) {
      check_cudnn(cudnnCreateTensorDescriptor(&tensor_), "cudnnCreateTensorDescriptor");
    }
    if (rows != rows_ || cols != cols_) {  // the benchmark's rows are 64 Mi elements: ints
      check_cudnn(cudnnSetTensor4dDescriptor(tensor_, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                             static_cast<int>(rows), static_cast<int>(cols), 1, 1),
                  "cudnnSetTensor4dDescriptor");
      rows_ = rows;
      cols_ = cols;
    }
    const float one = 1.0f, zero = 0.0f;  // output = 1 x softmax(input) + 0 x output
    check_cudnn(cudnnSoftmaxForward(handle_, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE,
                                    &one, tensor_, input, &zero, tensor_, output),
                "cudnnSoftmaxForward");
  }

 private:
  cudnnHandle_t handle_ = nullptr;
  cudnnTensorDescriptor_t tensor_ = nullptr;
  long long rows_ = 0, cols_ = 0;
};
#endif

void bench_cudnn_softmax(benchmark::State& state, long long cols) {
#if COURSE_HAVE_CUDNN
  // Never destroyed: a static's destructor would run after the CUDA runtime's own teardown.
  static CudnnSoftmax& cudnn = *new CudnnSoftmax;
  auto& c = softmax_case(cols);
  try {
    time_row(state, c, "cuDNN's softmax differs from the CPU's: a cuDNN call in "
             "bench_softmax_and_norms.cu is wrong", 0, [&] {
               cudnn.run(c.input.data(), c.output.data(), c.rows, c.cols);
             });
  } catch (const CudnnUnusable& unusable) {
    state.SkipWithError(unusable.what());
  }
#else
  (void)cols;
  state.SkipWithError(
      "cuDNN was not found when this build was configured (or -Dcudnn=disabled): install "
      "libcudnn9-dev-cuda-13 (or the cuDNN of your CUDA) and reconfigure: meson setup "
      "--reconfigure build");
#endif
}

// The floor: cudaMemcpyAsync of the same bytes, device to device.
template <typename T>
void bench_copy(benchmark::State& state, Case<T>& c) {
  const auto timing = course::bench::time_gpu(state, [&] {
    COURSE_CHECK(cudaMemcpyAsync(c.output.data(), c.input.data(), c.bytes() / 2,
                                 cudaMemcpyDeviceToDevice));
  });
  course::bench::set_bandwidth_counters(state, timing, c.bytes());
  copy_rates().add(Key(type_name<T>(), c.cols), state.counters["GB/s"]);
  state.counters["%copy"] = 100.0;
}

// The exercise's probe: 37 rows of 1000 columns (softmax) or 8 of 1000 (norms), against the CPU.
bool softmax_exercise_is_correct(int index) {
  // A step this GPU cannot run is timed as it is: its row then skips, saying what it needs.
  if (!why_step_cannot_run(kSoftmaxSteps[index].number).empty()) return true;
  return course::bench::probe_exercise([index] {
    constexpr long long rows = 37, cols = 1000;
    const std::vector<float> x = values(rows * cols, -8.0f, 8.0f, 5);
    course::DeviceBuffer<float> input, output(x.size());
    upload(input, x);
    output.fill_bytes(0xFF);
    Workspace workspace;
    exercise_softmax(index)(input.data(), output.data(), rows, cols, workspace);
    synchronize_or_stop(kSoftmaxSteps[index].name,
                        std::string("exercises/10-softmax-and-norms/") +
                            file_of(kSoftmaxSteps[index]));
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

template <typename T>
bool norm_exercise_is_correct(int index) {
  return course::bench::probe_exercise([index] {
    constexpr long long rows = 8, cols = 1000;
    const std::vector<float> x = values(rows * cols, -4.0f, 4.0f, 6);
    std::vector<float> gamma(cols, 1.0f), beta(cols, 0.0f);
    course::DeviceBuffer<T> input, g, b, output(x.size());
    upload(input, x);
    upload(g, gamma);
    upload(b, beta);
    output.fill_bytes(0xFF);
    if (index == 0) {
      layer_norm_of<T>(false)(input.data(), output.data(), g.data(), b.data(), rows, cols,
                              kEpsilon);
    } else {
      rms_norm_of<T>(false)(input.data(), output.data(), g.data(), rows, cols, kEpsilon);
    }
    std::vector<T> got(x.size());
    COURSE_CHECK(cudaMemcpy(got.data(), output.data(), x.size() * sizeof(T),
                            cudaMemcpyDeviceToHost));
    std::vector<float> rounded(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) rounded[i] = rounded_to<T>(x[i]);
    const NormReference ref =
        cpu_norm(rounded, gamma, index == 0 ? beta : std::vector<float>{}, rows, cols, kEpsilon);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double e = ref.output[i], value = static_cast<float>(got[i]);
      if (!(std::fabs(value - e) <= loose_bound<T>() * std::fabs(e) + 1e-3)) return false;
    }
    return true;
  });
}

// The probe of each norm of the exercise, on elements of type T (its kernel is a template).
template <typename T>
std::vector<bool> norm_exercise_results() {
  std::vector<bool> ok;
  for (int index = 0; index < kNormStepCount; ++index) {
    ok.push_back(norm_exercise_is_correct<T>(index));
  }
  return ok;
}

// LayerNorm and RMSNorm on elements of type T, and the copy of the same bytes, at `cols` columns.
template <typename T>
void register_norm_rows(long long cols, const std::vector<bool>& exercise_ok) {
  const std::string shape = std::string("/") + type_name<T>() + "/cols=" + std::to_string(cols);
  course::bench::register_row(
      "Floor/device_copy" + shape, kSamples, kRepetitions,
      [cols](benchmark::State& state) { bench_copy(state, norm_case<T>(cols)); });
  for (const bool is_solution : {false, true}) {
    for (int index = 0; index < kNormStepCount; ++index) {
      course::bench::register_implementation_row(
          is_solution, exercise_ok[index], kNormSteps[index].name + shape, kSamples,
          kRepetitions, [is_solution, index, cols](benchmark::State& state) {
            bench_norm<T>(state, is_solution, index, cols);
          });
    }
  }
}

}  // namespace

void course::bench::register_chapter_benchmarks() {
  std::vector<bool> softmax_ok;
  for (int index = 0; index < kSoftmaxStepCount; ++index) {
    softmax_ok.push_back(softmax_exercise_is_correct(index));
  }
  const std::vector<bool> half_ok = norm_exercise_results<__half>();
  const std::vector<bool> bfloat16_ok = norm_exercise_results<__nv_bfloat16>();
  for (const long long cols : {1024LL, 4096LL, 32768LL, 262144LL}) {
    const std::string shape = "/float/cols=" + std::to_string(cols);
    register_row("Floor/device_copy" + shape, kSamples, kRepetitions,
                 [cols](benchmark::State& state) { bench_copy(state, softmax_case(cols)); });
    register_row("cuDNN/SoftmaxForward" + shape, kSamples, kRepetitions,
                 [cols](benchmark::State& state) { bench_cudnn_softmax(state, cols); });
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
    register_norm_rows<__half>(cols, half_ok);
    register_norm_rows<__nv_bfloat16>(cols, bfloat16_ok);
  }
}
