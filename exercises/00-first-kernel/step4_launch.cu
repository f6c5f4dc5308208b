// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.4
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 4: the launch. The host chooses how many blocks of how many threads, starts the kernel,
// and then must ask twice whether it worked: a launch returns nothing, so an impossible
// configuration (a block larger than the GPU allows, say) is only seen by asking for the last
// error right after it; and the kernel runs asynchronously, so a fault inside it shows up only
// when the host waits for it. Neither is reported if nobody asks.
// The arrays live in course::DeviceBuffer (course/device_buffer.hpp): step 2's allocation,
// copies and free, with a destructor that frees even when an error is thrown.
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::exercise {

LaunchConfig launch_config(int n, int threads) {
  check_n("launch_config", n);
  check_threads("launch_config", threads);
  LaunchConfig config;
  // TODO: blocks of `threads` threads, and enough of them that every one of the n elements
  //       has a thread (and at least one block, so that n = 0 still makes a valid launch).
  return config;
}

std::vector<float> saxpy(SaxpyKernel kernel, float a, const std::vector<float>& x,
                         const std::vector<float>& y, int threads) {
  check_kernel("saxpy", kernel);
  check_same_size("saxpy", x.size(), y.size());
  check_threads("saxpy", threads);
  check_scale("saxpy", a);
  course::DeviceBuffer<float> x_device(x);
  course::DeviceBuffer<float> y_device(y);
  // TODO: launch kernel over all n elements with blocks of `threads` threads, on the GPU
  //       copies of x and y; then make sure that both the launch and the kernel's run
  //       succeeded, each failure thrown as a course::CudaError. The launch's check takes
  //       a name for the error message: COURSE_CHECK_LAUNCH("saxpy kernel").
  return y_device.to_host();
}

}  // namespace first_kernel::exercise
