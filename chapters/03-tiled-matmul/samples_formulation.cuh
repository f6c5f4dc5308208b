// The CUDA samples' formulation of the tiled kernel (32 x 32 tiles), as a yardstick: the
// benchmark's "cuda-samples" row, and a solution test that it computes the same product.
#pragma once

#include "tiled_matmul.cuh"

namespace tiled_matmul::samples {

// P = M x N, Width a multiple of 32.
void matmul(const float* M, const float* N, float* P, int width);

}  // namespace tiled_matmul::samples
