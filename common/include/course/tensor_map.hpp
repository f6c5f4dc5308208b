// The driver's cuTensorMapEncodeTiled, which makes the descriptions (CUtensorMap) that the TMA
// copies from: chapter 08's matrices and chapter 11's Q, K and V. The runtime hands out its
// address, so the course needs no link with libcuda.
#pragma once

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

namespace course {

// The function, asked of the driver once. Throws std::runtime_error when the driver has none
// (older than CUDA 12.0), saying so.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder();

}  // namespace course
