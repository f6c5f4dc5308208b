// Step 1: ask the GPU what it is. Everything later in the course is judged against these
// numbers: the SMs that run the blocks, the warp of threads that execute together, the most
// threads one block may have, and the peak DRAM bandwidth that a memory-bound kernel can at
// best reach.
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::solution {

DeviceSummary query_device() {
  DeviceSummary summary;
  // BEGIN SOLUTION
  // TODO: fill every field of summary for the current GPU, each CUDA call checked with
  //       COURSE_CHECK: which GPU is current, then its attributes (multiprocessors, warp size,
  //       compute capability, threads per block, memory clock in kHz, bus width in bits).
  COURSE_CHECK(cudaGetDevice(&summary.ordinal));
  const auto attribute = [&](cudaDeviceAttr which, int* value) {
    COURSE_CHECK(cudaDeviceGetAttribute(value, which, summary.ordinal));
  };
  attribute(cudaDevAttrMultiProcessorCount, &summary.multiprocessor_count);
  attribute(cudaDevAttrWarpSize, &summary.warp_size);
  attribute(cudaDevAttrComputeCapabilityMajor, &summary.compute_capability_major);
  attribute(cudaDevAttrComputeCapabilityMinor, &summary.compute_capability_minor);
  attribute(cudaDevAttrMaxThreadsPerBlock, &summary.max_threads_per_block);
  attribute(cudaDevAttrMemoryClockRate, &summary.memory_clock_khz);
  attribute(cudaDevAttrGlobalMemoryBusWidth, &summary.memory_bus_width_bits);
  // END SOLUTION
  // BEGIN SOLUTION
  // TODO: the peak DRAM bandwidth in GB/s (1e9 bytes per second) from the memory clock and
  //       the bus width.
  summary.peak_dram_gb_per_s = 2.0 * summary.memory_clock_khz * 1000.0 *
                               (summary.memory_bus_width_bits / 8.0) / 1e9;
  // END SOLUTION
  return summary;
}

}  // namespace first_kernel::solution
