// Known-wrong versions of chapter 00's steps (see mistakes.hpp). Each differs from the
// solution in one place, marked MISTAKE.
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "mistakes/mistakes.hpp"

namespace first_kernel::mistakes {

namespace {

__global__ void missing_tail_guard_kernel(int n, float a, const float* x, float* y) {
  (void)n;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];  // MISTAKE: no `if (i < n)`
}

}  // namespace

SaxpyKernel missing_tail_guard() { return missing_tail_guard_kernel; }

LaunchConfig grid_rounded_down(int n, int threads) {
  return {dim3(n / threads), dim3(threads)};  // MISTAKE: 1000 / 256 = 3 blocks, 768 threads
}

std::vector<float> launch_not_checked(SaxpyKernel kernel, float a, const std::vector<float>& x,
                                      const std::vector<float>& y, int threads) {
  const int n = static_cast<int>(x.size());
  course::DeviceBuffer<float> x_device(x), y_device(y);
  const LaunchConfig config = solution::launch_config(n, threads);
  kernel<<<config.grid, config.block>>>(n, a, x_device.data(), y_device.data());
  // MISTAKE: no COURSE_CHECK_LAUNCH; the synchronize reports faults of a kernel that ran, not
  // a launch that never started.
  COURSE_CHECK(cudaDeviceSynchronize());
  return y_device.to_host();
}

std::vector<float> host_pointer_to_kernel(SaxpyKernel kernel, float a,
                                          const std::vector<float>& x,
                                          const std::vector<float>& y, int threads) {
  const int n = static_cast<int>(x.size());
  course::DeviceBuffer<float> x_device(x), y_device(y);
  const LaunchConfig config = solution::launch_config(n, threads);
  kernel<<<config.grid, config.block>>>(n, a, x.data(), y_device.data());  // MISTAKE: x.data()
  COURSE_CHECK_LAUNCH("saxpy kernel");
  COURSE_CHECK(cudaDeviceSynchronize());
  return y_device.to_host();
}

}  // namespace first_kernel::mistakes
