// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 00.6
// (or: meson test -C build --suite 00-first-kernel:exercise --print-errorlogs)
// (generated from solutions/00-first-kernel/ by python3 -m tools.sync_exercises)
// Step 6: more bytes in flight per thread. Step 3's thread asks the memory for 8 bytes (x[i] and
// y[i]) and waits for them. By Little's law the memory delivers its bandwidth only while
// bandwidth x latency bytes are asked for and not yet delivered, at every moment: on a GPU whose
// memory is fast for its number of threads, 8 bytes per thread are too few. Here each thread
// computes kElementsPerThread elements and asks for all of them before it uses any: 32 bytes in
// flight per thread (two loops: the compiler keeps a load after a store that comes before it,
// since y might overlap x). Its elements lie a block's width apart, so that the 32 threads of a
// warp still read 32 neighbouring floats at a time, as in step 3. Expected: the copy's GB/s or
// more on every GPU (README: "Why one kernel gives two answers").
#include "first_kernel.cuh"

namespace first_kernel::exercise {

namespace {

__global__ void saxpy_in_flight_kernel_impl(int n, float a, const float* x, float* y) {
  // TODO: y[i] = a * x[i] + y[i] for kElementsPerThread elements i per thread. Block b owns the
  //       kElementsPerThread * blockDim.x elements that follow those of the blocks before it;
  //       its thread t takes the t-th of them and every blockDim.x-th after it, so that a warp
  //       reads neighbouring floats. Read every x and y of the thread before computing and
  //       storing any. As in step 3: indices count past INT_MAX without wrapping, and nothing
  //       at or past n is touched.
}

}  // namespace

SaxpyKernel saxpy_in_flight_kernel() { return saxpy_in_flight_kernel_impl; }

}  // namespace first_kernel::exercise
