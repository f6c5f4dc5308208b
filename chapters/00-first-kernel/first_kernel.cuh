// Chapter 00, a first kernel: the API that the exercise and the solution implement (and the
// known mistakes of steps.json, planted into the solution), and the argument checks they share.
//
// The host side of every CUDA program, one step per file: ask the GPU what it is (step 1), move
// data to it and back (step 2), a kernel, SAXPY y[i] = a * x[i] + y[i] (step 3), launch it over
// any n and check that it ran (step 4), time it with CUDA events (step 5), and SAXPY again with
// more bytes in flight per thread (step 6). Plain C++: tests and benchmarks include it from .cpp
// files.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "first_kernel_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace first_kernel {

// What step 1 reads from the device attributes.
struct DeviceSummary {
  int ordinal = 0;                  // which GPU (cudaGetDevice)
  int multiprocessor_count = 0;     // SMs
  int warp_size = 0;                // threads that execute one instruction together
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int max_threads_per_block = 0;
  int memory_clock_khz = 0;         // DRAM clock
  int memory_bus_width_bits = 0;    // DRAM bus width
  double peak_dram_gb_per_s = 0.0;  // 2 x clock x bus width in bytes, in GB/s (1e9 B/s)
};

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

// The SAXPY kernel's signature: y[i] = a * x[i] + y[i] for 0 <= i < n, x and y in GPU memory.
using SaxpyKernel = void (*)(int n, float a, const float* x, float* y);

// Step 6's kernel computes this many elements per thread, so its grid has this many times fewer
// threads than step 3's.
inline constexpr int kElementsPerThread = 4;

// The grid of step 6's kernel: blocks of `threads` threads, just enough of them for n elements
// at kElementsPerThread per thread, and at least one (ready-made: the launch is step 4's lesson).
LaunchConfig in_flight_launch_config(int n, int threads);

// Shared argument checks; each throws std::invalid_argument naming `function` and saying what
// to pass instead.
void check_count(const char* function, std::size_t n);
void check_n(const char* function, int n);
void check_threads(const char* function, int threads);
void check_same_size(const char* function, std::size_t x_size, std::size_t y_size);
void check_device_arrays(const char* function, const float* x, const float* y, int n);
void check_kernel(const char* function, SaxpyKernel kernel);
void check_scale(const char* function, float a);
void check_config(const char* function, const LaunchConfig& config);
void check_host_arrays(const char* function, const float* in, const float* out,
                       std::size_t n);

#define FIRST_KERNEL_DECLARE_STEPS                                                            \
  /* Step 1: the current GPU's attributes and its peak DRAM bandwidth. */                     \
  DeviceSummary query_device();                                                               \
  /* Step 2: copies n floats from host memory `in` to a GPU allocation, and from there to   \
     host memory `out`; throws course::CudaError when a CUDA call fails. */                   \
  void round_trip(const float* in, float* out, std::size_t n);                                \
  /* Step 3: this implementation's SAXPY kernel (a pointer the launchers take). */            \
  SaxpyKernel saxpy_kernel();                                                                 \
  /* Step 4: the blocks of `threads` threads that cover n elements. */                        \
  LaunchConfig launch_config(int n, int threads);                                             \
  /* Step 4: y = a * x + y on the GPU with `kernel` (tests pass the solution's), `threads`   \
     threads per block; copies x and y in and the new y out; throws course::CudaError when   \
     the launch or the kernel fails. */                                                       \
  std::vector<float> saxpy(SaxpyKernel kernel, float a, const std::vector<float>& x,          \
                           const std::vector<float>& y, int threads);                         \
  /* Step 5: milliseconds of one launch of `kernel` with `config` on GPU arrays x and y,     \
     measured with CUDA events. */                                                            \
  float time_launch_ms(SaxpyKernel kernel, LaunchConfig config, int n, float a,               \
                       const float* x, float* y);                                             \
  /* Step 6: SAXPY with kElementsPerThread elements per thread, all loaded before any is     \
     stored (launched with in_flight_launch_config). */                                       \
  SaxpyKernel saxpy_in_flight_kernel();

namespace solution {
FIRST_KERNEL_DECLARE_STEPS
}  // namespace solution

namespace exercise {
FIRST_KERNEL_DECLARE_STEPS
}  // namespace exercise

}  // namespace first_kernel
