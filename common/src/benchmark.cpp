#include "course/benchmark.hpp"

#include <cstdlib>
#include <numeric>
#include <stdexcept>

#include "course/device_buffer.hpp"

namespace course::bench {

const DeviceInfo& device() {
  static const DeviceInfo info = query_device();
  return info;
}

L2Flusher& shared_l2_flusher() {
  static L2Flusher flusher;
  return flusher;
}

GpuTiming summarize(const std::vector<double>& samples) {
  GpuTiming timing;
  if (samples.empty()) return timing;
  timing.mean_seconds =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  return timing;
}

void set_bandwidth_counters(benchmark::State& state, const GpuTiming& timing, double bytes) {
  if (timing.mean_seconds <= 0.0) return;
  const double gb_per_s = bytes / timing.mean_seconds / 1e9;
  state.counters["GB/s"] = gb_per_s;
  // Some drivers (WSL2, some laptops) report no memory clock: then there is no nominal peak,
  // and no %peak rather than an infinite one.
  const double peak = device().peak_dram_gb_per_s();
  if (peak > 0.0) state.counters["%peak"] = 100.0 * gb_per_s / peak;
}

void set_flops_counters(benchmark::State& state, const GpuTiming& timing, double flops,
                        double reference_gflops) {
  if (timing.mean_seconds <= 0.0) return;
  const double gflops = flops / timing.mean_seconds / 1e9;
  state.counters["GFLOP/s"] = gflops;
  if (reference_gflops > 0.0) state.counters["%ref"] = 100.0 * gflops / reference_gflops;
}

bool skip_unless_correct(benchmark::State& state, bool correct, const std::string& why) {
  if (!correct) state.SkipWithError(why.c_str());
  return correct;
}

namespace {
bool environment_flag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}
}  // namespace

bool full_run() { return environment_flag("COURSE_FULL_BENCHMARK"); }
bool profiling() { return environment_flag("COURSE_PROFILE"); }

benchmark::internal::Benchmark* sampled(benchmark::internal::Benchmark* row,
                                        benchmark::IterationCount quick_samples) {
  return full_run() ? row : row->Iterations(quick_samples);
}

void register_copy_bandwidth_benchmark(std::size_t bytes) {
  sampled(benchmark::RegisterBenchmark(
      ("DeviceToDeviceCopy/" + std::to_string(bytes >> 20) + "MiB").c_str(),
      [bytes](benchmark::State& state) {
        DeviceBuffer<unsigned char> source(bytes), destination(bytes);
        source.fill_bytes(0x3C);
        const GpuTiming timing = time_gpu(state, [&] {
          COURSE_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes,
                                       cudaMemcpyDeviceToDevice));
        });
        set_bandwidth_counters(state, timing, 2.0 * static_cast<double>(bytes));
      }), 50)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace course::bench
