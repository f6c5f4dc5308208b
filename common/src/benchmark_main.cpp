// main() of every chapter benchmark: refuses to run without a GPU (with the reason), puts the
// device and its nominal peak bandwidth into the benchmark context, then runs Google Benchmark.
#include <cstdio>
#include <exception>
#include <string>

#include "course/benchmark.hpp"

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
    benchmark::AddCustomContext("gpu", gpu.name);
    benchmark::AddCustomContext("compute_capability", std::to_string(gpu.compute_capability_major) +
                                                          "." +
                                                          std::to_string(gpu.compute_capability_minor));
    benchmark::AddCustomContext("multiprocessors", std::to_string(gpu.multiprocessor_count));
    benchmark::AddCustomContext("peak_dram_GB/s", std::to_string(gpu.peak_dram_gb_per_s()));
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
