#include "course/device_buffer.hpp"

#include <string>

namespace course {

void* device_allocate(std::size_t bytes) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaSuccess) return pointer;
  cudaGetLastError();  // an allocation failure must not poison the next launch check
  std::string what = "cudaMalloc of " + std::to_string(bytes) + " bytes";
  std::size_t free_bytes = 0, total_bytes = 0;
  if (status == cudaErrorMemoryAllocation &&
      cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    what += " (" + std::to_string(free_bytes >> 20) + " MiB free of " +
            std::to_string(total_bytes >> 20) + " MiB)";
  }
  throw_cuda_error(status, what.c_str(), __FILE__, __LINE__);
}

void device_free(void* pointer) noexcept {
  if (pointer != nullptr) cudaFree(pointer);
}

void* pinned_allocate(std::size_t bytes) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status == cudaSuccess) return pointer;
  cudaGetLastError();
  const std::string what = "cudaMallocHost of " + std::to_string(bytes) + " bytes";
  throw_cuda_error(status, what.c_str(), __FILE__, __LINE__);
}

void pinned_free(void* pointer) noexcept {
  if (pointer != nullptr) cudaFreeHost(pointer);
}

}  // namespace course
