// Chapter 01, sum of squares: the API that the exercise and the solution implement (and the
// known mistakes of steps.json, planted into the solution), and the host-side pieces they share.
//
// Input: n ints already on the GPU. Output: the sum of their squares as a 64-bit unsigned
// integer, exact, wrapping modulo 2^64 like unsigned arithmetic. Each step also reports the GPU
// cycles (clock64) of its slowest block, as in the classic tutorial.
//
// This header is plain C++ (no kernels), so tests and benchmarks can include it from .cpp files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/guarded_buffer.hpp"
#include "sum_of_squares_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace sum_of_squares {

struct Result {
  std::uint64_t sum = 0;         // sum of x*x over the input, modulo 2^64
  std::uint64_t gpu_cycles = 0;  // clock64() cycles of the slowest block
};

struct LatencyResult {
  std::uint32_t final_index = 0;  // where the chase ended: proves every load happened
  std::size_t timed_loads = 0;    // dependent loads between the two clock reads
  std::size_t warmup_loads = 0;   // loads before the first clock read (fill the caches)
  std::uint64_t cycles = 0;       // clock64() cycles of the timed loads
  std::uint64_t nanoseconds = 0;  // %globaltimer nanoseconds of the timed loads
  double cycles_per_load() const { return timed_loads ? double(cycles) / timed_loads : 0.0; }
  double ns_per_load() const { return timed_loads ? double(nanoseconds) / timed_loads : 0.0; }
};

// Memory a step reuses from call to call, so that timing leaves allocation out.
// On the GPU: [partial sums ... | cycles of each block ...], brought back in ONE copy into
// page-locked host memory, where the partial sums are added.
class Workspace {
 public:
  // Makes room for `partial_count` partial sums and `block_count` cycle counters.
  void prepare(std::size_t partial_count, std::size_t block_count);
  unsigned long long* partials() { return device_.data(); }
  unsigned long long* block_cycles() { return device_.data() + partial_count_; }

  // Copies the partial sums and cycles back, adds the partials on the host (what steps 4 and 5
  // change is how many numbers this adds), and returns the sum and the slowest block's cycles.
  Result finish_on_host();

  // Tests: fill the device memory with 0xFF before every run, so that partial sums the kernel
  // never wrote stand out (they read as 2^64 - 1).
  void poison_before_each_run(bool enabled) { poison_ = enabled; }
  // The partial sums of the last run, as copied back (tests use them to say what went wrong).
  const unsigned long long* last_partials() const { return host_.data(); }
  std::size_t last_partial_count() const { return partial_count_; }
  // Tests: "" when no kernel wrote outside the workspace, else what it wrote where.
  std::string margin_report() const { return device_.check_margins().text("the partial sums"); }

 private:
  course::GuardedBuffer<unsigned long long> device_;
  course::PinnedBuffer<unsigned long long> host_;
  std::size_t partial_count_ = 0;
  std::size_t block_count_ = 0;
  bool poison_ = false;
};

// CPU references, shared by the tests and the benchmark's validation.
// x*x exactly, as the device's square() computes it.
std::uint64_t cpu_square(int x);
// The exact answer every step must give: sum of x*x modulo 2^64.
std::uint64_t cpu_sum_of_squares(const std::vector<int>& input);
// Follows next[] `loads` times from index 0.
std::uint32_t cpu_pointer_chase(const std::vector<std::uint32_t>& next, std::size_t loads);
// A random permutation of 0..n-1 that is ONE cycle through all n indices (Sattolo's
// algorithm), so a chase visits the whole working set in random order.
std::vector<std::uint32_t> random_cycle(std::size_t n, std::uint64_t seed);

// Argument checks shared by every launcher; each throws std::invalid_argument with a message
// that names the step and says what to pass instead.
void check_input(const char* step, const int* input, std::size_t n);
void check_threads(const char* step, int threads);
void check_blocks(const char* step, int blocks);
void check_power_of_two_threads(const char* step, int threads);

// Every implementation (namespace solution, exercise) declares the same steps.
#define SUM_OF_SQUARES_DECLARE_STEPS                                                          \
  /* Step 0: one thread follows next[] from index 0; measures global-memory load latency. */  \
  LatencyResult step0_pointer_chase(const std::uint32_t* next, std::size_t n,                  \
                                    std::size_t timed_loads);                                  \
  /* Step 1: <<<1, 1>>>, one thread loops over all n elements. */                              \
  Result step1_one_thread(const int* input, std::size_t n, Workspace& workspace);             \
  /* Step 2: <<<1, threads>>>, thread t sums its own contiguous chunk. */                      \
  Result step2_contiguous_chunks(const int* input, std::size_t n, int threads,                \
                                 Workspace& workspace);                                        \
  /* Step 3: <<<1, threads>>>, thread t sums t, t + threads, ... (coalesced). */               \
  Result step3_interleaved(const int* input, std::size_t n, int threads, Workspace& workspace); \
  /* Step 4: <<<blocks, threads>>>, grid-stride loop, one partial sum per thread. */           \
  Result step4_grid_stride(const int* input, std::size_t n, int blocks, int threads,          \
                           Workspace& workspace);                                              \
  /* Step 5: as step 4, then a shared-memory tree per block: one partial sum per block. */     \
  Result step5_block_reduction(const int* input, std::size_t n, int blocks, int threads,      \
                               Workspace& workspace);

namespace solution {
SUM_OF_SQUARES_DECLARE_STEPS
}  // namespace solution

namespace exercise {
SUM_OF_SQUARES_DECLARE_STEPS
}  // namespace exercise

}  // namespace sum_of_squares
