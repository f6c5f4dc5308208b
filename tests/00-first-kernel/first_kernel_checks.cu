// Chapter 00's checks (see first_kernel_checks.hpp). A .cu file: step 3's check launches the
// kernel itself, and step 4's probe is a kernel.
#include "first_kernel_checks.hpp"

#include <climits>
#include <cmath>
#include <sstream>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"
#include "course/random.hpp"

namespace first_kernel::testing {

void PrintTo(Implementation implementation, std::ostream* out) {
  *out << (implementation == Implementation::solution ? "solution" : "exercise");
}

std::string source_file(Implementation implementation, const std::string& step_file) {
  return std::string(implementation == Implementation::solution ? "solutions" : "exercises") +
         "/00-first-kernel/" + step_file;
}

Steps steps_of(Implementation implementation) {
  if (implementation == Implementation::solution) {
    return {solution::query_device, solution::round_trip, solution::saxpy_kernel,
            solution::launch_config, solution::saxpy, solution::time_launch_ms};
  }
  return {exercise::query_device, exercise::round_trip, exercise::saxpy_kernel,
          exercise::launch_config, exercise::saxpy, exercise::time_launch_ms};
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  return course::random_floats(n, -1.0f, 1.0f, seed);
}

std::vector<double> cpu_saxpy(float a, const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = double(a) * x[i] + y[i];
  return out;
}

::testing::AssertionResult matches(const std::vector<float>& got,
                                   const std::vector<double>& expected, const std::string& what) {
  if (got.size() != expected.size()) {
    return ::testing::AssertionFailure() << what << ": " << got.size() << " elements, expected "
                                         << expected.size();
  }
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    // a * x[i] + y[i] with |a|, |x|, |y| <= 4: float rounding (fused or not) stays far below
    // 1e-5; an element the kernel never wrote keeps its old value, off by about |a * x[i]|.
    if (!(std::fabs(got[i] - expected[i]) <= 1e-5 * (1.0 + std::fabs(expected[i])))) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << wrong << " of " << got.size() << " elements are wrong, the first at "
         << "index " << first << " (got " << got[first] << ", expected " << expected[first]
         << ")";
}

::testing::AssertionResult kernel_matches_cpu(SaxpyKernel kernel, int n, int threads,
                                              const std::string& file) {
  if (kernel == nullptr) {
    return ::testing::AssertionFailure() << file << ": saxpy_kernel() returned a null pointer";
  }
  const float a = 2.5f;
  const std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  course::GuardedBuffer<float> x_device(x), y_device(y);
  const int blocks = (n + threads - 1) / threads;
  kernel<<<blocks, threads>>>(n, a, x_device.data(), y_device.data());
  COURSE_CHECK_LAUNCH("saxpy kernel");
  COURSE_CHECK(cudaDeviceSynchronize());
  std::ostringstream where;
  where << file << ", n = " << n << " with " << blocks << " blocks of " << threads
        << " threads (" << blocks * threads - n << " threads past the end)";
  const std::string outside_y = y_device.check_margins().text("y");
  const std::string outside_x = x_device.check_margins().text("x");
  if (!outside_y.empty() || !outside_x.empty()) {
    return ::testing::AssertionFailure()
           << where.str() << ": the kernel wrote outside its arrays: " << outside_y << " "
           << outside_x << " (does every thread whose element is not below n stay away?)";
  }
  if (x_device.to_host() != x) {
    return ::testing::AssertionFailure() << where.str() << ": the kernel changed x";
  }
  return matches(y_device.to_host(), cpu_saxpy(a, x, y), where.str() + ": y after the kernel");
}

::testing::AssertionResult config_covers(LaunchConfig (*config_of)(int, int), int n,
                                         int threads, const std::string& file) {
  const LaunchConfig config = config_of(n, threads);
  std::ostringstream what;
  what << file << ": launch_config(n = " << n << ", threads = " << threads << ") gave grid ("
       << config.grid.x << ", " << config.grid.y << ", " << config.grid.z << ") and block ("
       << config.block.x << ", " << config.block.y << ", " << config.block.z << ")";
  if (config.block.x != static_cast<unsigned>(threads) || config.block.y != 1 ||
      config.block.z != 1) {
    return ::testing::AssertionFailure() << what.str() << ": the block must be (" << threads
                                         << ", 1, 1)";
  }
  if (config.grid.y != 1 || config.grid.z != 1) {
    return ::testing::AssertionFailure() << what.str() << ": the grid must be one-dimensional";
  }
  const long long rounding_sum = n + (threads - 1ll);  // in 64 bits: it passes INT_MAX
  const long long needed = n > 0 ? rounding_sum / threads : 1;
  if (config.grid.x > needed && rounding_sum > INT_MAX) {  // a wrapped, negative count
    return ::testing::AssertionFailure()
           << what.str() << ", not " << needed << " blocks: n + threads - 1 = " << rounding_sum
           << " is past INT_MAX (" << INT_MAX << "), so rounding up as (n + threads - 1) / "
           << "threads overflows an int here and wraps to a negative number, which the grid "
           << "reads as a huge count. Round up without that sum: one more block when threads "
           << "does not divide n";
  }
  const long long covered = 1ll * config.grid.x * threads;
  if (covered < n) {
    return ::testing::AssertionFailure()
           << what.str() << ": " << covered << " threads for " << n << " elements, so the last "
           << n - covered << " are never computed";
  }
  if (config.grid.x < 1) {
    return ::testing::AssertionFailure()
           << what.str() << ": no block at all; a launch needs at least one, even for n = 0";
  }
  if (config.grid.x > needed) {
    return ::testing::AssertionFailure()
           << what.str() << ": " << config.grid.x << " blocks where " << needed
           << " are enough: the blocks past those would have no element to compute";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult bad_launch_is_reported(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file) {
  const std::vector<float> x = random_floats(1000, 3), y = random_floats(1000, 4);
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  try {
    launcher(solution::saxpy_kernel(), 2.0f, x, y, 2048);
    result = ::testing::AssertionFailure()
             << file << ": saxpy with 2048 threads per block returned as if the kernel had run. "
             << "No GPU runs a block that large, so the launch failed, and nothing asked: the "
             << "launcher must check the launch right after it (COURSE_CHECK_LAUNCH) and the "
             << "kernel's run (a checked synchronize)";
  } catch (const course::CudaError&) {
  }
  (void)cudaGetLastError();  // a failure nobody asked about must not reach the next test
  return result;
}

namespace {

__device__ const void* seen_pointers[2];

// Records the pointers it was given, reads nothing through them.
__global__ void probe_kernel(int, float, const float* x, float* y) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    seen_pointers[0] = x;
    seen_pointers[1] = y;
  }
}

// True when `pointer` lies in the host vector `v`. The probe's pointers are looked at after the
// launcher has returned, when its GPU buffers are already freed (cudaPointerGetAttributes would
// call them unregistered host memory), so they are compared with the host vectors instead.
bool points_into(const void* pointer, const std::vector<float>& v) {
  const auto* p = static_cast<const float*>(pointer);
  return p >= v.data() && p < v.data() + v.size();
}

}  // namespace

::testing::AssertionResult kernel_gets_gpu_pointers(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file) {
  const std::vector<float> x = random_floats(1000, 5), y = random_floats(1000, 6);
  const void* none[2] = {nullptr, nullptr};
  COURSE_CHECK(cudaMemcpyToSymbol(seen_pointers, none, sizeof(none)));
  launcher(probe_kernel, 2.0f, x, y, 256);
  const void* seen[2] = {nullptr, nullptr};
  COURSE_CHECK(cudaMemcpyFromSymbol(seen, seen_pointers, sizeof(seen)));
  const char* names[2] = {"x", "y"};
  for (int k = 0; k < 2; ++k) {
    if (seen[k] == nullptr) {
      return ::testing::AssertionFailure()
             << file << ": saxpy did not launch the kernel it was given (or gave it a null "
             << names[k] << ")";
    }
    if (points_into(seen[k], x) || points_into(seen[k], y)) {
      return ::testing::AssertionFailure()
             << file << ": the kernel was given " << names[k] << " = " << seen[k]
             << ", which is the host vector's memory. A kernel runs on the GPU and reads GPU "
             << "memory: pass the pointer of the copy on the GPU, not the host vector's";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace first_kernel::testing
