// Step 5: timing on the GPU's own clock. A launch returns to the host at once, long before the
// kernel finishes, so a host timer around it measures almost nothing. CUDA events are
// timestamps that the GPU itself records when the work before them in the stream is done; the
// time between two of them is the kernel's time on the GPU.
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::solution {

float time_launch_ms(SaxpyKernel kernel, LaunchConfig config, int n, float a, const float* x,
                     float* y) {
  check_kernel("time_launch_ms", kernel);
  check_device_arrays("time_launch_ms", x, y, n);
  check_config("time_launch_ms", config);
  check_scale("time_launch_ms", a);
  float milliseconds = 0.0f;
  // BEGIN SOLUTION
  // TODO: put the launch of kernel (with config, on x and y) between two events, wait until the
  //       second has happened, and read the milliseconds between them; check every call and
  //       the launch, and destroy the events before returning, also when a check throws.
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  try {
    COURSE_CHECK(cudaEventCreate(&start));
    COURSE_CHECK(cudaEventCreate(&stop));
    COURSE_CHECK(cudaEventRecord(start));
    kernel<<<config.grid, config.block>>>(n, a, x, y);
    COURSE_CHECK_LAUNCH("saxpy kernel");
    COURSE_CHECK(cudaEventRecord(stop));
    COURSE_CHECK(cudaEventSynchronize(stop));
    COURSE_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
  } catch (...) {
    // The error being thrown is the one to report: a failure to destroy is not checked here.
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    throw;
  }
  const cudaError_t start_destroyed = cudaEventDestroy(start);  // both, before either throws
  const cudaError_t stop_destroyed = cudaEventDestroy(stop);
  COURSE_CHECK(start_destroyed);
  COURSE_CHECK(stop_destroyed);
  // END SOLUTION
  return milliseconds;
}

}  // namespace first_kernel::solution
