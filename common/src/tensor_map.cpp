#include "course/tensor_map.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "course/errors.hpp"

namespace course {

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 function = [] {
    void* address = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    COURSE_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &address, 12000,
                                                  cudaEnableDefault, &found));
#else
    COURSE_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &address, cudaEnableDefault,
                                         &found));
#endif
    if (found != cudaDriverEntryPointSuccess || address == nullptr) {
      throw std::runtime_error(
          "the CUDA driver has no cuTensorMapEncodeTiled: the steps that copy with the TMA need "
          "a driver for CUDA 12.0 or newer (./course doctor checks the driver)");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(address);
  }();
  return function;
}

}  // namespace course
