// Typed exceptions for failed CUDA runtime calls and kernel launches.
// Every helper in the course throws instead of calling exit(), so a test can assert on the
// failure and a learner sees the failing expression, file and line, plus what to try next.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace course {

// A CUDA runtime call (or a kernel launch) failed.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, std::string expression, std::string file, int line);

  cudaError_t code() const noexcept { return code_; }
  const std::string& expression() const noexcept { return expression_; }
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  cudaError_t code_;
  std::string expression_;
  std::string file_;
  int line_;
};

// cudaMalloc could not get the memory: the size is too large for this GPU.
class OutOfDeviceMemory : public CudaError {
 public:
  using CudaError::CudaError;
};

// There is no usable GPU (no device, no driver, or a driver too old for this runtime).
class NoGpuError : public CudaError {
 public:
  using CudaError::CudaError;
};

// Thrown by a step's launcher on a GPU, or from a build, that cannot run the step; the message
// says what the step needs and what this GPU is (each chapter's why_step_cannot_run). Its tests
// skip instead (COURSE_SKIP_UNLESS_STEP_RUNS, course/testing.hpp).
class StepNeedsAnotherGpu : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The full message for a failed call: what failed, where, and a hint for the usual causes.
std::string describe_cuda_failure(cudaError_t code, const std::string& expression,
                                  const std::string& file, int line);

// True for the error codes that mean "this machine has no usable GPU".
bool is_no_gpu_error(cudaError_t code) noexcept;

// Throws the most specific exception type for `code` (never returns).
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expression, const char* file,
                                   int line);

// Checks the launch that was just issued (bad configuration, missing kernel image, ...).
void check_last_launch(const char* what, const char* file, int line);

}  // namespace course

// Wrap every CUDA runtime call: COURSE_CHECK(cudaMemcpy(...));
#define COURSE_CHECK(expression)                                                 \
  do {                                                                           \
    const cudaError_t course_check_status_ = (expression);                      \
    if (course_check_status_ != cudaSuccess) {                                   \
      ::course::throw_cuda_error(course_check_status_, #expression, __FILE__,    \
                                 __LINE__);                                      \
    }                                                                            \
  } while (0)

// Put right after every kernel<<<...>>>: launches report their errors only when asked.
// The argument names the kernel in the error: COURSE_CHECK_LAUNCH("saxpy kernel");
#define COURSE_CHECK_LAUNCH(kernel_name) \
  ::course::check_last_launch(kernel_name, __FILE__, __LINE__)
