// Host side of chapter 08's steps 4-6, ready-made: the tensor maps that tell the TMA how a
// matrix is laid out, what the watchdog of the barrier waits reports (course/watchdog.hpp arms
// it), and the probe that says whether the GPU runs the sm_90a code. Compiled like steps 5 and 6 (common/chapter.meson: sm90a_args).
#include <cuda.h>

#include <stdexcept>
#include <string>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/tensor_map.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_hopper.cuh"

namespace tensor_core_gemm {

namespace {

__global__ void sm90a_probe(int* answer) {
#if defined(TENSOR_CORE_GEMM_HOPPER)
  *answer = 1;
#else
  *answer = 0;
#endif
}

}  // namespace

CUtensorMap make_tensor_map(const __half* matrix, int rows, int columns, int ld, int box_rows,
                            int box_columns) {
  CUtensorMap map{};
  // Innermost dimension first: columns, then rows. Strides in bytes, for all but the first.
  const cuuint64_t size[2] = {static_cast<cuuint64_t>(columns), static_cast<cuuint64_t>(rows)};
  const cuuint64_t stride[1] = {static_cast<cuuint64_t>(ld) * sizeof(__half)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_columns),
                             static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_stride[2] = {1, 1};
  const CUresult result = course::tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half*>(matrix), size, stride, box,
      element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw std::runtime_error("cuTensorMapEncodeTiled failed (CUresult " +
                             std::to_string(static_cast<int>(result)) + ") for a " +
                             std::to_string(rows) + " x " + std::to_string(columns) +
                             " matrix with rows " + std::to_string(ld) + " halves apart");
  }
  return map;
}

OperandMaps make_operand_maps(const __half* A, const __half* B, int m, int k, int n) {
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  return {make_tensor_map(A, m, k, k, BM, BK), make_tensor_map(b, k, ldb, ldb, BK, B_BOX_COLUMNS)};
}

std::string barrier_timeout_report() {
  const course::WatchdogReport report = course::watchdog_report();
  if (report.happened == 0) return "";
  // what[0] and what[1]: the stage and the parity (hopper::wait).
  return "block (" + std::to_string(report.block_x) + ", " + std::to_string(report.block_y) +
         "), warp " + std::to_string(report.warp) + " waited on stage " +
         std::to_string(report.what[0]) + " for parity " + std::to_string(report.what[1]);
}

namespace detail {

bool sm90a_code_runs() {
  course::DeviceBuffer<int> answer(1);
  sm90a_probe<<<1, 1>>>(answer.data());
  const cudaError_t launched = cudaGetLastError();
  if (launched == cudaErrorNoKernelImageForDevice || launched == cudaErrorInvalidDeviceFunction) {
    return false;
  }
  COURSE_CHECK(launched);
  COURSE_CHECK(cudaDeviceSynchronize());
  return answer.to_host()[0] == 1;
}

}  // namespace detail

}  // namespace tensor_core_gemm
