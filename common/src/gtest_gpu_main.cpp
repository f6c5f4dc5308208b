// main() of every GPU test binary. Without a usable GPU it prints why and returns 77, which
// Meson reports as SKIP (a GTEST_SKIP in every test would show as OK, hiding that nothing ran).
// --gtest_list_tests lists the tests and returns before the GPU check.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "course/device_info.hpp"
#include "course/testing.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // --gtest_list_tests needs no GPU: the host check that every exercise test belongs to a
  // step (python3 -m scripts.manifest filters) lists the tests on machines without one.
#ifdef GTEST_FLAG_GET
  const bool list_only = GTEST_FLAG_GET(list_tests);
#else
  const bool list_only = ::testing::GTEST_FLAG(list_tests);
#endif
  if (list_only) return RUN_ALL_TESTS();
  std::string why;
  if (!course::gpu_available(&why)) {
    std::printf("SKIP: no usable CUDA GPU (%s); the GPU tests did not run.\n", why.c_str());
    return 77;
  }
  const course::DeviceInfo gpu = course::query_device();
  std::printf("GPU: %s (compute capability %d.%d, %d multiprocessors)\n", gpu.name.c_str(),
              gpu.compute_capability_major, gpu.compute_capability_minor,
              gpu.multiprocessor_count);
  return RUN_ALL_TESTS();
}
