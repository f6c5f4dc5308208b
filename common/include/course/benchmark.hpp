// Google Benchmark glue shared by every chapter's benchmark, bench_<name>.cu when the benchmark
// itself needs device code (the reduction chapters call CUB, whose device-wide algorithms are
// templates that nvcc must compile; chapter 08 times a kernel of its own, the mma.sync
// ceiling), bench_<name>.cpp otherwise (chapters 02-07: cuBLAS is a host library, and their
// kernels are called through launchers):
//  - time_gpu(): manual timing with CUDA events, L2 flushed before every sample;
//  - counters computed from the measured GPU time (GB/s, % of peak DRAM bandwidth, GFLOP/s);
//  - skip_unless_correct(): a wrong exercise is never timed;
//  - the device (name, peak bandwidth) in the benchmark context, from course_benchmark_main.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "course/device_info.hpp"
#include "course/timing.hpp"

namespace course::bench {

// The GPU the benchmarks run on; set once by the benchmark main before any benchmark runs.
const DeviceInfo& device();

// Per-run timing, in seconds per iteration: the counters are rates over the run's mean (Google
// Benchmark's own aggregates give the median over the repetitions).
struct GpuTiming {
  double mean_seconds = 0.0;
};

GpuTiming summarize(const std::vector<double>& samples);

// One scratch buffer (twice the L2) shared by every benchmark of the program.
L2Flusher& shared_l2_flusher();

// Runs `work()` once per benchmark iteration between two CUDA events on the default stream,
// after flushing L2, and hands the event time to Google Benchmark (register the benchmark with
// ->UseManualTime()). `work` may include host code (copies back, a final host addition):
// the stop event is recorded after it returns, so the time is what the caller experiences.
template <typename Work>
GpuTiming time_gpu(benchmark::State& state, Work&& work) {
  L2Flusher& flusher = shared_l2_flusher();
  EventTimer timer;
  std::vector<double> samples;
  for (auto _ : state) {
    flusher.flush();
    timer.start();
    work();
    timer.stop();
    const double seconds = timer.elapsed_ms() * 1e-3;
    state.SetIterationTime(seconds);
    samples.push_back(seconds);
  }
  return summarize(samples);
}

// "GB/s" and "%peak" (of the nominal DRAM bandwidth) for `bytes` moved per iteration.
void set_bandwidth_counters(benchmark::State& state, const GpuTiming& timing, double bytes);

// "GFLOP/s" for `flops` per iteration; with `reference_gflops` > 0 also "%ref".
void set_flops_counters(benchmark::State& state, const GpuTiming& timing, double flops,
                        double reference_gflops = 0.0);

// The vendor row's rate (GB/s, GFLOP/s) in each of its repetitions, per case (size, shape), so
// that "%ref" compares with the median over them rather than with whichever repetition ran
// last. Google Benchmark runs all repetitions of a row before the next row, and the vendor row
// of a case is registered before the rows compared with it.
template <typename Key>
class ReferenceRates {
 public:
  void add(const Key& key, double rate) { rates_[key].push_back(rate); }
  // 0 when the vendor row has not run (filtered out, or skipped).
  double median(const Key& key) const {
    const auto found = rates_.find(key);
    if (found == rates_.end() || found->second.empty()) return 0.0;
    std::vector<double> rates = found->second;
    const auto middle = rates.begin() + static_cast<std::ptrdiff_t>(rates.size() / 2);
    std::nth_element(rates.begin(), middle, rates.end());
    return *middle;
  }

 private:
  std::map<Key, std::vector<double>> rates_;
};

// When `correct` is false, marks the benchmark skipped with `why` (and a pointer to the
// tests); returns `correct` so the caller can `if (!skip_unless_correct(...)) return;`.
bool skip_unless_correct(benchmark::State& state, bool correct, const std::string& why);

// Each chapter's bench_<name>.cu or .cpp defines this: it registers the chapter's benchmarks. The
// course benchmark main calls it once a GPU is known to be there, so registration may probe
// the GPU (for example to run the exercise once and see whether it is correct yet).
void register_chapter_benchmarks();

// Registers "DeviceToDeviceCopy/<bytes>": the copy bandwidth that this GPU reaches in the
// same run (bytes read plus bytes written), the practical ceiling for memory-bound kernels.
void register_copy_bandwidth_benchmark(std::size_t bytes);

// COURSE_FULL_BENCHMARK=1 (./course compare --full): every repetition runs for Google
// Benchmark's default minimum time, as thorough as it gets. Otherwise each repetition is
// `quick_samples` samples, so that a chapter's whole table takes well under a minute.
bool full_run();
benchmark::internal::Benchmark* sampled(benchmark::internal::Benchmark* row,
                                        benchmark::IterationCount quick_samples);

// COURSE_PROFILE=1 (./course profile, under Nsight Compute): the registration-time checks of
// the exercise are skipped, so that the first launch of a kernel is the profiled row's own.
bool profiling();

}  // namespace course::bench
