// What the benchmarks need to know about the GPU, read through device attributes
// (CUDA 13 removed cudaDeviceProp::clockRate and ::memoryClockRate).
#pragma once

#include <cstddef>
#include <string>

namespace course {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int max_threads_per_multiprocessor = 0;
  int l2_cache_bytes = 0;
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_width_bits = 0;

  // Theoretical DRAM bandwidth from the attributes (see peak_dram_bandwidth_gb_per_s).
  double peak_dram_gb_per_s() const;
};

// 2 transfers per clock (double data rate) x clock x bus width in bytes, in GB/s (1e9 B/s).
// The nominal figure: real copies reach roughly 85-95% of it.
double peak_dram_bandwidth_gb_per_s(int memory_clock_khz, int memory_bus_width_bits);

// Attributes of the current device; throws NoGpuError when there is none.
DeviceInfo query_device();

// The same, asked once per device and then remembered: launchers ask on every call, and
// cudaGetDeviceProperties costs the host far more than a short kernel runs.
const DeviceInfo& current_device();

// Multiprocessors of the current GPU (current_device's, for launchers that size grids on every
// call).
int multiprocessor_count();

// Blocks of `kernel` (launched with `block_size` threads and `shared_bytes` of dynamic shared
// memory) that one multiprocessor of the current GPU runs at once, at least 1. Asked of the
// occupancy calculator once per device, kernel, block size and shared memory, then remembered:
// launchers ask on every call.
int resident_blocks_per_multiprocessor(const void* kernel, int block_size, int shared_bytes = 0);

// The compute capability (major x 10 + minor) this build's kernels were compiled for (meson's
// gpu_arch: sm_75 -> 75). A GPU of that capability or newer runs them (a newer one through the
// PTX), with no instruction that a newer architecture added: code that needs 9.0 does not run
// from a build for sm_75 even on a 9.0 GPU.
int built_for_compute_capability();

// Registers per thread, bytes of local memory (spills and stack) and static shared memory of a
// kernel, read with cudaFuncGetAttributes: the matmul chapters' README tables, and their tests
// that no step spills.
struct KernelResources {
  int registers = 0;
  std::size_t local_bytes = 0;
  std::size_t shared_bytes = 0;
};
KernelResources resources_of(const void* kernel);

// True if a usable GPU is present; otherwise false and `why` says what is missing.
bool gpu_available(std::string* why = nullptr);

}  // namespace course
