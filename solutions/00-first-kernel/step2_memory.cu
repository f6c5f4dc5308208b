// Step 2: the host/device round trip by hand. The GPU has its own memory: a kernel can only
// read what was copied there, and the CPU can only read a result once it is copied back.
// Every CUDA call returns an error code, and a failed call that nobody checks lets the
// program go on with garbage: here each one is checked with COURSE_CHECK, which throws
// course::CudaError naming the call, the file and the line.
// (Later steps use course::DeviceBuffer, which does the same with a destructor that frees.)
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::solution {

void round_trip(const float* in, float* out, std::size_t n) {
  check_host_arrays("round_trip", in, out, n);
  if (n == 0) return;
  // BEGIN SOLUTION
  // TODO: allocate GPU memory for n floats, copy in into it, copy it from there into out, and
  //       free it; check every call, so that a failed allocation throws instead of going
  //       unnoticed.
  const std::size_t bytes = n * sizeof(float);
  float* device = nullptr;
  COURSE_CHECK(cudaMalloc(&device, bytes));
  COURSE_CHECK(cudaMemcpy(device, in, bytes, cudaMemcpyHostToDevice));
  COURSE_CHECK(cudaMemcpy(out, device, bytes, cudaMemcpyDeviceToHost));
  COURSE_CHECK(cudaFree(device));
  // END SOLUTION
}

}  // namespace first_kernel::solution
