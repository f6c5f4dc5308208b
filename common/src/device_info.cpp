#include "course/device_info.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "course/errors.hpp"

namespace course {

double peak_dram_bandwidth_gb_per_s(int memory_clock_khz, int memory_bus_width_bits) {
  const double bytes_per_transfer = memory_bus_width_bits / 8.0;
  return 2.0 * (memory_clock_khz * 1e3) * bytes_per_transfer / 1e9;
}

double DeviceInfo::peak_dram_gb_per_s() const {
  return peak_dram_bandwidth_gb_per_s(memory_clock_khz, memory_bus_width_bits);
}

DeviceInfo query_device() {
  DeviceInfo info;
  COURSE_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp properties{};
  COURSE_CHECK(cudaGetDeviceProperties(&properties, info.ordinal));
  info.name = properties.name;
  const auto attribute = [&](cudaDeviceAttr which) {
    int value = 0;
    COURSE_CHECK(cudaDeviceGetAttribute(&value, which, info.ordinal));
    return value;
  };
  info.compute_capability_major = attribute(cudaDevAttrComputeCapabilityMajor);
  info.compute_capability_minor = attribute(cudaDevAttrComputeCapabilityMinor);
  info.multiprocessor_count = attribute(cudaDevAttrMultiProcessorCount);
  info.max_threads_per_multiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
  info.l2_cache_bytes = attribute(cudaDevAttrL2CacheSize);
  info.sm_clock_khz = attribute(cudaDevAttrClockRate);
  info.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
  info.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  return info;
}

const DeviceInfo& current_device() {
  static std::mutex mutex;
  static std::map<int, DeviceInfo> known;  // per device; a map's entries stay where they are
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = known.find(device);
  if (found == known.end()) found = known.emplace(device, query_device()).first;
  return found->second;
}

int multiprocessor_count() { return current_device().multiprocessor_count; }

int resident_blocks_per_multiprocessor(const void* kernel, int block_size, int shared_bytes) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int, int>, int> known;
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  int& blocks = known[{device, kernel, block_size, shared_bytes}];
  if (blocks == 0) {
    int per_multiprocessor = 0;
    COURSE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel,
                                                               block_size, shared_bytes));
    blocks = std::max(1, per_multiprocessor);
  }
  return blocks;
}

int built_for_compute_capability() { return COURSE_BUILT_FOR_COMPUTE_CAPABILITY; }

KernelResources resources_of(const void* kernel) {
  cudaFuncAttributes attributes{};
  COURSE_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return {attributes.numRegs, attributes.localSizeBytes, attributes.sharedSizeBytes};
}

bool gpu_available(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    if (why != nullptr) {
      *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + " (" +
             cudaGetErrorString(status) + ")";
    }
    return false;
  }
  if (count == 0) {
    if (why != nullptr) *why = "cudaGetDeviceCount found no CUDA device";
    return false;
  }
  return true;
}

}  // namespace course
