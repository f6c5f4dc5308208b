// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.5
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 5: timing on the GPU's own clock. A launch returns to the host at once, long before the
// kernel finishes, so a host timer around it measures almost nothing. CUDA events are
// timestamps that the GPU itself records when the work before them in the stream is done; the
// time between two of them is the kernel's time on the GPU.
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::exercise {

float time_launch_ms(SaxpyKernel kernel, LaunchConfig config, int n, float a, const float* x,
                     float* y) {
  check_kernel("time_launch_ms", kernel);
  check_device_arrays("time_launch_ms", x, y, n);
  check_config("time_launch_ms", config);
  check_scale("time_launch_ms", a);
  float milliseconds = 0.0f;
  // TODO: put the launch of kernel (with config, on x and y) between two events, wait until the
  //       second has happened, and read the milliseconds between them; check every call and
  //       the launch, and destroy the events before returning, also when a check throws.
  return milliseconds;
}

}  // namespace first_kernel::exercise
