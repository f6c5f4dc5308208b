// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 01.0
// (or: meson test -C build --suite 01-sum-of-squares:exercise --print-errorlogs)
// (generated from solutions/01-sum-of-squares/ by python3 -m tools.sync_exercises)
// Step 0: how long does ONE global-memory load take?
// A single thread follows a random cycle through next[]: every load needs the previous load's
// value as its address, so nothing overlaps and the time per load is the full latency. With a
// working set that fits in L1 you see tens of cycles; in L2 a few hundred; only in DRAM (and
// its page tables) many hundreds. Every later step is about hiding this latency.
#include <cstdint>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "sum_of_squares.cuh"
#include "sum_of_squares_device.cuh"

namespace sum_of_squares::exercise {

namespace {

__device__ __forceinline__ unsigned long long global_nanoseconds() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// chase(): follows next[] `loads` times from `index` and returns where it ends.
__device__ std::uint32_t chase(const std::uint32_t* next, std::uint32_t index, std::size_t loads) {
  // TODO: follow the chain `loads` times from `index`: each load's address is the result of
  //       the load before it, so no two loads can overlap. Leave the last index reached in
  //       `index`.
  return index;
}

__global__ void pointer_chase_kernel(const std::uint32_t* next, std::size_t warmup_loads,
                                     std::size_t timed_loads, unsigned long long* out) {
  // First pass: brings the working set into the caches it fits in.
  std::uint32_t index = chase(next, 0, warmup_loads);
  const long long start_cycles = clock64();
  const unsigned long long start_ns = global_nanoseconds();
  index = chase(next, index, timed_loads);
  // Reading the result before the clocks makes the clocks wait for the last load.
  out[0] = index;
  out[1] = static_cast<unsigned long long>(clock64() - start_cycles);
  out[2] = global_nanoseconds() - start_ns;
}

}  // namespace

LatencyResult step0_pointer_chase(const std::uint32_t* next, std::size_t n,
                                  std::size_t timed_loads) {
  if (next == nullptr || n == 0) {
    throw std::invalid_argument("step0_pointer_chase: next must be a device array of n >= 1 "
                                "indices (a permutation of 0..n-1)");
  }
  if (timed_loads == 0) {
    throw std::invalid_argument("step0_pointer_chase: timed_loads must be at least 1");
  }
  LatencyResult result;
  result.timed_loads = timed_loads;
  result.warmup_loads = n < timed_loads ? n : timed_loads;  // one lap warms a set that fits
  course::DeviceBuffer<unsigned long long> out(3);
  out.fill_bytes(0);
  pointer_chase_kernel<<<1, 1>>>(next, result.warmup_loads, timed_loads, out.data());
  COURSE_CHECK_LAUNCH("pointer_chase_kernel");
  const std::vector<unsigned long long> host = out.to_host();
  result.final_index = static_cast<std::uint32_t>(host[0]);
  result.cycles = host[1];
  result.nanoseconds = host[2];
  return result;
}

}  // namespace sum_of_squares::exercise
