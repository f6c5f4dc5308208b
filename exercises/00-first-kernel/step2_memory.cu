// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.2
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 2: the host/device round trip by hand. The GPU has its own memory: a kernel can only
// read what was copied there, and the CPU can only read a result once it is copied back.
// Every CUDA call returns an error code, and a failed call that nobody checks lets the
// program go on with garbage: here each one is checked with COURSE_CHECK, which throws
// course::CudaError naming the call, the file and the line.
// (Later steps use course::DeviceBuffer, which does the same with a destructor that frees.)
#include "course/errors.hpp"
#include "first_kernel.cuh"

namespace first_kernel::exercise {

void round_trip(const float* in, float* out, std::size_t n) {
  check_host_arrays("round_trip", in, out, n);
  if (n == 0) return;
  // TODO: allocate GPU memory for n floats, copy in into it, copy it from there into out, and
  //       free it; check every call, so that a failed allocation throws instead of going
  //       unnoticed.
}

}  // namespace first_kernel::exercise
