#include "course/errors.hpp"

#include <sstream>

namespace course {

namespace {

// check_last_launch() names its expression "launch of <kernel>"; recent runtimes report an
// impossible block size as cudaErrorInvalidValue, which then gets the configuration hint.
constexpr const char* kLaunchPrefix = "launch of ";

// One line of advice for the failures learners actually meet.
const char* hint_for(cudaError_t code, bool is_launch) {
  if (is_launch && code == cudaErrorInvalidValue) code = cudaErrorInvalidConfiguration;
  switch (code) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorCallRequiresNewerDriver:
      return "No usable NVIDIA GPU: this needs a GPU of compute capability 7.5 or newer and a "
             "driver that supports this CUDA runtime (check with nvidia-smi).";
    case cudaErrorMemoryAllocation:
      return "The GPU is out of memory: use a smaller size, or free other GPU programs "
             "(nvidia-smi lists them).";
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
      return "A kernel accessed memory it does not own (an index past the end of an array, or "
             "before its start). To find the line, run the step under compute-sanitizer: "
             "./course test NN.S (its memcheck run names the file and line), or meson test -C "
             "build --setup=memcheck --suite <chapter>:exercise --print-errorlogs.";
    case cudaErrorMisalignedAddress:
      return "A kernel made a misaligned access: a load or store of N bytes from an address "
             "that is not a multiple of N (e.g. a 16-byte float4/int4 vector load or store from "
             "an address that is not a multiple of 16; check the offset and the base pointer "
             "before you cast them to a vector type). To find the line, run the step under "
             "compute-sanitizer: ./course test NN.S (its memcheck run names the file and line), "
             "or meson test -C build --setup=memcheck --suite <chapter>:exercise "
             "--print-errorlogs.";
    case cudaErrorInvalidConfiguration:
      return "The launch configuration is impossible: at most 1024 threads per block, grid and "
             "block sizes above zero, shared memory within the per-block limit.";
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidPtx:
      return "The code was built for another GPU architecture: reconfigure with "
             "-Dgpu_arch=native (or your GPU's sm_XX) and rebuild.";
    case cudaErrorLaunchTimeout:
      return "A kernel ran too long and the display driver stopped it: use a smaller size or "
             "a GPU that is not driving a display.";
    default:
      return nullptr;
  }
}

}  // namespace

bool is_no_gpu_error(cudaError_t code) noexcept {
  return code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver ||
         code == cudaErrorCallRequiresNewerDriver || code == cudaErrorDevicesUnavailable;
}

std::string describe_cuda_failure(cudaError_t code, const std::string& expression,
                                  const std::string& file, int line) {
  std::ostringstream out;
  out << file << ":" << line << ": " << expression << " failed: " << cudaGetErrorName(code)
      << " (" << cudaGetErrorString(code) << ")";
  const bool is_launch = expression.rfind(kLaunchPrefix, 0) == 0;
  if (const char* hint = hint_for(code, is_launch)) out << ". " << hint;
  return out.str();
}

CudaError::CudaError(cudaError_t code, std::string expression, std::string file, int line)
    : std::runtime_error(describe_cuda_failure(code, expression, file, line)),
      code_(code),
      expression_(std::move(expression)),
      file_(std::move(file)),
      line_(line) {}

void throw_cuda_error(cudaError_t code, const char* expression, const char* file, int line) {
  if (code == cudaErrorMemoryAllocation) throw OutOfDeviceMemory(code, expression, file, line);
  if (is_no_gpu_error(code)) throw NoGpuError(code, expression, file, line);
  throw CudaError(code, expression, file, line);
}

void check_last_launch(const char* what, const char* file, int line) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    throw_cuda_error(status, (std::string(kLaunchPrefix) + what).c_str(), file, line);
  }
}

}  // namespace course
