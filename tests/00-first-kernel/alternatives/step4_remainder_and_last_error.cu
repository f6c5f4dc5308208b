// ALTERNATIVE 00.4 step4_launch.cu
// Rounding up by the remainder: n / threads blocks, one more when threads does not divide n
// (no n + threads - 1 that could overflow), at least one. The launch is checked by asking for
// the last error directly, and the kernel's run by waiting for the default stream.
// @region
  int blocks = n / threads + (n % threads != 0 ? 1 : 0);
  if (blocks == 0) blocks = 1;
  config.grid = dim3(blocks, 1, 1);
  config.block = dim3(threads, 1, 1);
// @region
  const int n = static_cast<int>(x.size());
  const LaunchConfig config = launch_config(n, threads);
  kernel<<<config.grid, config.block>>>(n, a, x_device.data(), y_device.data());
  COURSE_CHECK(cudaGetLastError());
  COURSE_CHECK(cudaStreamSynchronize(nullptr));
