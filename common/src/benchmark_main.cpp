// main() of every chapter benchmark: refuses to run without a GPU (with the reason), puts the
// device, its nominal peak bandwidth and the limits that decide how many blocks run at once into
// the benchmark context (./course compare recomputes each chapter's key numbers from them), then
// runs Google Benchmark.
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <string>

#include "course/benchmark.hpp"
#include "course/errors.hpp"

namespace {

int device_attribute(cudaDeviceAttr which, int device) {
  int value = 0;
  COURSE_CHECK(cudaDeviceGetAttribute(&value, which, device));
  return value;
}

void add_device_context(const course::DeviceInfo& gpu) {
  const auto add = [](const char* key, long long value) {
    benchmark::AddCustomContext(key, std::to_string(value));
  };
  benchmark::AddCustomContext("gpu", gpu.name);
  benchmark::AddCustomContext("compute_capability",
                              std::to_string(gpu.compute_capability_major) + "." +
                                  std::to_string(gpu.compute_capability_minor));
  add("multiprocessors", gpu.multiprocessor_count);
  benchmark::AddCustomContext("peak_dram_GB/s", std::to_string(gpu.peak_dram_gb_per_s()));
  add("max_threads_per_multiprocessor", gpu.max_threads_per_multiprocessor);
  add("max_blocks_per_multiprocessor",
      device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor, gpu.ordinal));
  add("max_threads_per_block", device_attribute(cudaDevAttrMaxThreadsPerBlock, gpu.ordinal));
  add("shared_memory_per_multiprocessor_bytes",
      device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, gpu.ordinal));
  add("registers_per_multiprocessor",
      device_attribute(cudaDevAttrMaxRegistersPerMultiprocessor, gpu.ordinal));
  add("l2_cache_bytes", gpu.l2_cache_bytes);
  add("sm_clock_kHz", gpu.sm_clock_khz);
  add("memory_clock_kHz", gpu.memory_clock_khz);
  add("memory_bus_width_bits", gpu.memory_bus_width_bits);
}

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  if (!course::gpu_available(&why)) {
    std::fprintf(stderr,
                 "This benchmark needs an NVIDIA GPU, and none is usable here: %s.\n"
                 "Check the driver with nvidia-smi.\n",
                 why.c_str());
    return 1;
  }
  try {
    const course::DeviceInfo& gpu = course::bench::device();
    add_device_context(gpu);
    course::bench::register_chapter_benchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "benchmark stopped: %s\n", error.what());
    return 1;
  }
  return 0;
}
