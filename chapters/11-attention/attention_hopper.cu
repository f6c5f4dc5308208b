// Host side of chapter 11's steps 4 and 5, ready-made: the TMA descriptions of Q, K and V, and
// the probe that says whether the GPU runs the sm_90a code. Compiled for sm_90a too.
#include <cuda.h>

#include <stdexcept>
#include <string>

#include "attention.cuh"
#include "attention_hopper.cuh"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/tensor_map.hpp"

namespace attention {

namespace {

__global__ void sm90a_probe(int* answer) {
#if defined(ATTENTION_HOPPER)
  *answer = 1;
#else
  *answer = 0;
#endif
}

}  // namespace

CUtensorMap make_head_map(const __half* array, const Shape& shape) {
  CUtensorMap map{};
  // Innermost dimension first: head_dim, heads, tokens, batch. Strides in bytes, for all but the
  // first; the TMA wants each a multiple of 16 bytes and below 2^40.
  const cuuint64_t size[4] = {static_cast<cuuint64_t>(shape.head_dim),
                              static_cast<cuuint64_t>(shape.heads),
                              static_cast<cuuint64_t>(shape.tokens),
                              static_cast<cuuint64_t>(shape.batch)};
  const cuuint64_t token_bytes = size[0] * size[1] * sizeof(__half);
  const cuuint64_t stride[3] = {size[0] * sizeof(__half), token_bytes, token_bytes * size[2]};
  const cuuint32_t box[4] = {64, 1, static_cast<cuuint32_t>(kStep4Rows), 1};
  const cuuint32_t element_stride[4] = {1, 1, 1, 1};
  if (stride[2] >= (cuuint64_t{1} << 40)) {
    throw std::invalid_argument("attention: one sequence of tokens x heads x head_dim values "
                                "spans 2^40 bytes or more, past what the TMA addresses (steps 4 "
                                "and 5); split it into shorter sequences");
  }
  const CUresult result = course::tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, const_cast<__half*>(array), size, stride, box,
      element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw std::runtime_error("cuTensorMapEncodeTiled failed (CUresult " +
                             std::to_string(static_cast<int>(result)) + ") for an array of " +
                             std::to_string(shape.batch) + " x " + std::to_string(shape.tokens) +
                             " x " + std::to_string(shape.heads) + " x " +
                             std::to_string(shape.head_dim) + " halves");
  }
  return map;
}

HeadMaps make_head_maps(const __half* q, const __half* k, const __half* v, const Shape& shape) {
  return {make_head_map(q, shape), make_head_map(k, shape), make_head_map(v, shape)};
}

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

}  // namespace attention
