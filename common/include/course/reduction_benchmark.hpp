// Benchmark rows for the reduction chapters (01, 05, 06): one input per element type and size,
// made once with its exact result and the rounding error a GPU result may show; a row that
// checks a reduction once, times it and checks the timed result again; the registration of the
// exercise, solution and vendor (CUB) rows. Host code only: each chapter's bench_<name>.cu
// passes its CUB calls in as callables (course/benchmark.hpp says why those files are .cu).
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "course/benchmark.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"

namespace course::bench {

// n values of T on the device, the exact result every row must reproduce, and how far from it a
// result may be: an integral Exact (chapter 01's sum of squares modulo 2^64) must be met
// exactly, a long double one within `bound`.
template <typename T, typename Exact = long double>
struct ReductionInput {
  DeviceBuffer<T> device;
  Exact exact{};
  double bound = 0.0;

  std::size_t size() const { return device.size(); }
  double bytes() const { return static_cast<double>(device.size() * sizeof(T)); }
};

// Whether `got` is the input's result: equal (integers), or within the bound (NaN fails).
template <typename T, typename Exact, typename Got>
bool close_enough(const ReductionInput<T, Exact>& input, Got got) {
  if constexpr (std::is_integral_v<Exact>) {
    static_assert(std::is_integral_v<Got>, "an exact integer result is compared with an integer");
    return static_cast<Exact>(got) == input.exact;
  } else {
    return std::fabs(static_cast<long double>(got) - input.exact) <= input.bound;
  }
}

// The input of n elements: made by make(n) (a ReductionInput<T, Exact>) the first time it is
// asked for, then kept for the whole program, so that every row of a size reads the same values
// and the reference is computed once. One maker per (T, Exact) in a program.
template <typename T, typename Exact = long double, typename Make>
const ReductionInput<T, Exact>& cached_input(std::size_t n, Make&& make) {
  static std::map<std::size_t, std::unique_ptr<ReductionInput<T, Exact>>> inputs;
  auto& slot = inputs[n];
  if (!slot) slot = std::make_unique<ReductionInput<T, Exact>>(make(n));
  return *slot;
}

// Chapters 05 and 06's input (float or double): n random values in [-1, 1), the tests' kind
// (course::random_doubles seeded with n, rounded to T), their exact sum, and the allowed error
// course::summation_error_bound<T>(sum |x_i|, depth) for the chapter's summation depth of n.
// Cached like cached_input: `depth` is read when the input of size n is made.
template <typename T>
const ReductionInput<T>& random_sum_input(std::size_t n, std::size_t depth);

// What a row reduces with, for its skip messages.
struct Reducer {
  std::string what;   // "exercise step3_interleaved", "solution reduce5_unroll_last_warp", "CUB"
  std::string tests;  // the command whose tests say why it is wrong; "" for the vendor

  // "exercise <step>" or "solution <step>", pointing at
  // "meson test -C build --suite <chapter>:exercise" (or :solution).
  static Reducer implementation(bool is_solution, const std::string& step,
                                const std::string& chapter);
  static Reducer vendor(const std::string& name) { return {name, ""}; }

  // "<what> gives a wrong sum; its tests say why: <tests>", or "<what> gave a wrong sum".
  std::string wrong() const;
  // "<what> gave a wrong sum in the timed runs".
  std::string wrong_when_timed() const;
};

// One row's measurement. work() reduces the input once; result() is the sum it left, on the
// host. work() either brings the sum to the host itself (then the time includes that copy) or
// leaves it on the device for result() to copy after the timed region. The first result is
// checked before anything is timed (a wrong one skips the row with reducer.wrong()), the last
// timed one after (reducer.wrong_when_timed()). Sets "GB/s" and "%peak" for reading the input
// once. Returns false when the row was skipped.
template <typename T, typename Exact, typename Work, typename Result>
bool time_reduction(benchmark::State& state, const ReductionInput<T, Exact>& input,
                    const Reducer& reducer, Work&& work, Result&& result) {
  work();
  if (!skip_unless_correct(state, close_enough(input, result()), reducer.wrong())) return false;
  const GpuTiming timing = time_gpu(state, work);
  if (!skip_unless_correct(state, close_enough(input, result()), reducer.wrong_when_timed())) {
    return false;
  }
  set_bandwidth_counters(state, timing, input.bytes());
  return true;
}

// The same for a reduce() that returns the sum on the host: the timed work includes the copy.
template <typename T, typename Exact, typename Reduce>
bool time_reduction(benchmark::State& state, const ReductionInput<T, Exact>& input,
                    const Reducer& reducer, Reduce&& reduce) {
  decltype(reduce()) last{};
  return time_reduction(state, input, reducer, [&] { last = reduce(); }, [&] { return last; });
}

// A CUB device-wide algorithm with its scratch memory. CUB's convention: called with a null
// scratch pointer, an algorithm only writes how many bytes it needs. The scratch is allocated
// here, once, outside the timed region, like the steps' workspaces.
//   call(void* scratch, std::size_t& scratch_bytes, cudaStream_t stream) -> cudaError_t
template <typename Call>
class CubCall {
 public:
  explicit CubCall(Call call) : call_(std::move(call)) {
    std::size_t bytes = 0;
    COURSE_CHECK(call_(nullptr, bytes, cudaStream_t{}));
    scratch_ = DeviceBuffer<unsigned char>(bytes);
  }
  // Enqueues the algorithm on `stream` (the default stream unless given).
  cudaError_t operator()(cudaStream_t stream = nullptr) {
    std::size_t bytes = scratch_.size();
    return call_(scratch_.data(), bytes, stream);
  }

 private:
  Call call_;
  DeviceBuffer<unsigned char> scratch_;
};

// "<name>": `samples` samples per repetition (as many as Google Benchmark wants under
// full_run()), timed by the row itself (time_gpu), in microseconds, `repetitions` repetitions
// of which only the aggregates are shown.
void register_row(const std::string& name, benchmark::IterationCount samples, int repetitions,
                  std::function<void(benchmark::State&)> run);

// "Exercise/<name>" or "Solution/<name>", as register_row. An exercise that failed its
// registration probe (probe_exercise) gets one sample and one repetition: one "skipped" line
// instead of one per repetition.
void register_implementation_row(bool is_solution, bool exercise_passed, const std::string& name,
                                 benchmark::IterationCount samples, int repetitions,
                                 std::function<void(benchmark::State&)> run);

// The exercise's registration probe: probe() runs it once on a small input and says whether
// its result is right. Under profiling() it is not run (true), so that the profiled row's
// launch is the kernel's first.
bool probe_exercise(const std::function<bool()>& probe);

}  // namespace course::bench
